import path from 'node:path';
import { diffLock, lockPath, makeLock, writeLock } from '../catalog/lock.js';
import { readCatalogFile } from '../catalog/file.js';
import { loadConfig } from '../config/load.js';
import { resolveConfig } from '../config/resolve.js';
import { snapshotUpstreams } from '../upstream/snapshot.js';
import { existsSync } from 'node:fs';
import { compareStrings } from '../util/compare.js';
import {configFlag, defineCommand, type FlagSpecs, UsageError } from './args.js';
import { type Command, warnLine } from './io.js';
import { counted } from '../util/plural.js';
import { warmEmbeddings } from './embeddings.js';
import { outsideText } from '../util/redact.js';
import { shownName } from '../config/secrets.js';
import { checkOutputFile, type OutputFile, writeOutputFile } from './output-file.js';

/** Characters of a drifted item's id `lock --check` prints (a server name and a tool, prompt or resource name). */
const DRIFT_ID_MAX = 300;

const lockFlags = {
  config: configFlag,
  out: { type: 'string', value: 'F', help: 'lock file to write (default: lazytools.lock.json beside the rc file)' },
  check: { type: 'boolean', help: 'compare the live upstreams with the lock: exit 0 when they match, 1 on drift\n(tools, instructions, prompts or resources added, removed or changed), 2 when there is no lock' },
} as const satisfies FlagSpecs;

export const lockCommand: Command = defineCommand('lock', lockFlags, {
  about: `A server that cannot be reached is listed with the reason; the others are written and the
exit status is 1 (a gateway starts the missing ones at boot, as without a lock). An entry with an
unset \${VAR} is a config error: exit 2, before any server is contacted.`,
}, async ({ values }, io) => {
  const { config: rc, file } = await loadConfig({ file: values.config, cwd: io.cwd });
  const config = resolveConfig(rc, file);
  if (Object.keys(config.servers).length === 0) throw new UsageError(
      `nothing to lock: ${file ? `${file} lists no servers` : 'no rc file found'}. Import your client's servers with \`lazytools init --from claude-desktop|cursor|vscode|claude-code|PATH\`, or add "servers" to the rc file.`,
    );
  const out = values.out ? path.resolve(io.cwd, values.out) : lockPath(file, io.cwd);
  if (values.check && !existsSync(out)) throw new UsageError(`no lock file at ${out}: run \`lazytools lock\` first`);
  // A folder or a missing folder given as --out is said before every server is contacted.
  const output: OutputFile | undefined = values.out !== undefined && !values.check ? { flag: '--out', given: values.out, file: out, example: 'lazytools.lock.json' } : undefined;
  if (output) checkOutputFile(output);
  // What the upstreams' lists lost on the way (a tool left out, a description cut) is said, not dropped silently.
  const logger = { info: () => {}, warn: (message: string) => warnLine(io, message), error: () => {} };
  const live = await snapshotUpstreams(config, { env: io.env, logger, progress: (line) => io.err(line) });
  const failed = live.failures.length > 0;
  if (failed) {
    io.err(`could not reach ${live.failures.length} server(s):`);
    for (const failure of [...live.failures].sort((a, b) => compareStrings(a.server, b.server))) io.err(`  ${shownName(failure.server)}: ${failure.error}`);
  }
  if (failed && (values.check || live.sources.length === 0)) {
    io.err(values.check ? 'cannot compare them with the lock' : 'nothing written');
    return 1;
  }
  if (values.check) {
    const drift = diffLock(await readCatalogFile(out), live.sources);
    const total = drift.added.length + drift.removed.length + drift.changed.length;
    if (total === 0) {
      io.out(`${out} matches the upstreams`);
      return 0;
    }
    // An id carries an upstream's words (a prompt's name): its control characters are printed escaped, never run by the terminal.
    for (const [kind, ids] of Object.entries(drift)) for (const id of ids) io.out(`${kind.padEnd(7)} ${outsideText(id, DRIFT_ID_MAX)}`);
    io.err(`${out} is out of date (${drift.added.length} added, ${drift.removed.length} removed, ${drift.changed.length} changed): run \`lazytools lock\``);
    return 1;
  }
  // A partial lock: the gateway starts the servers it lacks at boot, as if there were no lock.
  const lock = makeLock(live.sources, config);
  await (output ? writeOutputFile(output, () => writeLock(out, lock)) : writeLock(out, lock));
  io.err(`wrote ${out} (${counted(live.sources.reduce((n, s) => n + s.tools.length, 0), 'tool')} from ${counted(live.sources.length, 'server')})${failed ? `; without ${live.failures.map((f) => shownName(f.server)).join(', ')}: run \`lazytools lock\` again once they start` : ''}`);
  await warmEmbeddings(live.sources, config, io);
  return failed ? 1 : 0;
});
