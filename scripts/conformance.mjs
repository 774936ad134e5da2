// `npm run conformance`: runs the MCP conformance suite's server scenarios against the kitchen-sink
// fixture twice, directly over HTTP and through `lazytools serve --http` (rc `defaultMode: "all"`,
// `strategy: "notify"`, the fixture as an HTTP upstream), for both protocol eras, and prints the
// scores. Needs a build (`npm run build`). Exit 1 when, in an era, the gateway passes fewer
// scenarios than the fixture does directly.
//
//   node scripts/conformance.mjs [--era 2025|2026|both] [--only direct|gateway] [--scenario NAME] [--verbose]
//                                [--server URL] [--stdio-upstream] [--legacy-upstream]
//
// `--server URL` measures another server instead of the fixture, say the SDK's conformance
// everything-server started by hand: directly at URL, and behind lazytools as an HTTP upstream.
// `--stdio-upstream` runs the fixture behind lazytools as a stdio upstream; `--legacy-upstream`
// does so with `--legacy-only` (a 2025 upstream). By default it serves both eras there too, as the
// SDK's everything-server does.
//
// - 2025: `@modelcontextprotocol/conformance` 0.1.16, `server --spec-version 2025-11-25`; every
//   scenario it runs counts.
// - 2026: `conformance-next` (`@modelcontextprotocol/conformance` 0.2.0-alpha.12),
//   `server --requirements 2026-07-28`: exactly the scenarios that revision requires. The CLI also
//   runs extension and pending scenarios and lists them under "Not scored for 2026-07-28"; those
//   are reported apart and never counted (the SDK's own conformance everything-server fails the
//   tasks extension too).
//
// Both CLIs import `globSync` from "fs", which Node 20 lacks: scripts/conformance-cli.mjs runs a
// copy with a stub there.
//
// `--auth` runs the client auth scenarios instead (scripts/conformance-auth.mjs): lazytools'
// upstream connector as the client under test; its last line is `auth: N/M scenarios pass`.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { conformanceCli } from './conformance-cli.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = path.join(ROOT, 'test/fixtures/kitchen-sink.mjs');
const BIN = path.join(ROOT, JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin.lazytools);

/** The two eras: which CLI package, and how it is told the revision. */
const ERAS = {
  2025: { spec: '2025-11-25', pkg: '@modelcontextprotocol/conformance', args: ['--spec-version', '2025-11-25'] },
  2026: { spec: '2026-07-28', pkg: 'conformance-next', args: ['--requirements', '2026-07-28'] },
};

const { values } = parseArgs({
  options: { era: { type: 'string', default: 'both' }, only: { type: 'string' }, scenario: { type: 'string' }, verbose: { type: 'boolean' }, server: { type: 'string' }, 'legacy-upstream': { type: 'boolean' }, 'stdio-upstream': { type: 'boolean' }, auth: { type: 'boolean' } },
});
if (values.auth) {
  const { runAuthScenarios } = await import('./conformance-auth.mjs');
  process.exit(await runAuthScenarios({ scenario: values.scenario, verbose: values.verbose }));
}
const eras = values.era === 'both' ? ['2025', '2026'] : [values.era];
if (!eras.every((era) => Object.hasOwn(ERAS, era))) {
  console.error(`--era: expected 2025, 2026 or both, got "${values.era}"`);
  process.exit(2);
}

/** Starts a process and resolves with the first line matching `pattern` on the given stream. */
function startAndWait(command, args, stream, pattern, env = process.env) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk) => {
      buffer += chunk.toString();
      const match = pattern.exec(buffer);
      if (match) {
        child[stream].off('data', onData);
        resolve({ child, url: match[1] });
      }
    };
    child[stream].on('data', onData);
    child.once('exit', (code) => reject(new Error(`${path.basename(args[0] ?? command)} exited (${code}) before it served: ${buffer}`)));
  });
}

function runSuite(era, url) {
  // One scenario: the 2026 CLI refuses --scenario next to --requirements; --spec-version picks it.
  const revision = values.scenario ? ['--spec-version', ERAS[era].spec, '--scenario', values.scenario] : ERAS[era].args;
  const args = [conformanceCli(ERAS[era].pkg), 'server', '--url', url, ...revision];
  if (values.verbose) args.push('--verbose');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.once('exit', () => resolve(out));
  });
}

/**
 * The summary of one run: scored scenarios (name -> passed, i.e. no failed check) and the ones
 * the CLI lists as not scored for the revision (2026 CLI only).
 */
function scores(output) {
  const [summary = '', unscored = ''] = output.split(/^Not scored for /m);
  const excluded = new Set([...unscored.matchAll(/^\s+[✓✗] ([\w-]+) \(/gmu)].map((match) => match[1]));
  const scored = new Map();
  const extra = new Map();
  for (const match of summary.matchAll(/^[✓✗] ([\w-]+): (\d+) passed, (\d+) failed/gmu)) (excluded.has(match[1]) ? extra : scored).set(match[1], Number(match[3]) === 0);
  return { scored, extra };
}

/** Runs every selected era's suite against a URL served by `start`. */
async function against(start) {
  const { child, url } = await start();
  try {
    const results = {};
    for (const era of eras) results[era] = await runSuite(era, url);
    return results;
  } finally {
    child.kill('SIGTERM');
  }
}

/** The server under test: the fixture on a fresh port, or `--server` (left running). */
const direct = () =>
  values.server ? Promise.resolve({ child: { kill() {} }, url: values.server }) : startAndWait(process.execPath, [FIXTURE, '--http', '0'], 'stdout', /^(http:\S+)$/m);

/**
 * lazytools in front of the server under test, as the acceptance run does: an HTTP upstream (the
 * fixture on its own port, or `--server`); `--stdio-upstream` or `--legacy-upstream` runs the
 * fixture as a stdio upstream instead.
 */
async function gateway() {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'lazytools-conformance-'));
  const rc = path.join(dir, '.lazytoolsrc.json');
  const stdio = values['stdio-upstream'] || values['legacy-upstream'];
  const fixture = values.server || stdio ? undefined : await direct();
  const upstream = values.server
    ? { url: values.server }
    : fixture
      ? { url: fixture.url }
      : { command: process.execPath, args: [FIXTURE, ...(values['legacy-upstream'] ? ['--legacy-only'] : [])] };
  fs.writeFileSync(rc, JSON.stringify({ servers: { kitchen: upstream }, defaultMode: 'all', strategy: 'notify' }));
  const front = await startAndWait(process.execPath, [BIN, 'serve', '--config', rc, '--http', '127.0.0.1:0'], 'stderr', /serving (http:\S+mcp)/);
  return { url: front.url, child: { kill: () => (front.child.kill('SIGTERM'), fixture?.child.kill()) } };
}

const runs = [];
if (values.only !== 'gateway') runs.push(['direct', await against(direct)]);
if (values.only !== 'direct') runs.push(['lazytools', await against(gateway)]);

const summary = {};
for (const era of eras) {
  const { spec } = ERAS[era];
  summary[spec] = {};
  for (const [name, outputs] of runs) {
    const { scored, extra } = scores(outputs[era]);
    const passed = [...scored.values()].filter(Boolean).length;
    if (values.verbose) console.log(outputs[era]);
    const unscored = extra.size > 0 ? ` (not scored: ${[...extra.values()].filter(Boolean).length}/${extra.size} pass)` : '';
    console.log(`${name.padEnd(9)} ${spec}: ${passed}/${scored.size} scenarios pass${unscored}`);
    const failed = [...scored].filter(([, ok]) => !ok).map(([scenario]) => scenario);
    if (failed.length > 0) console.log(`  failing: ${failed.join(', ')}`);
    summary[spec][name] = { passed, total: scored.size, scenarios: scored };
  }
  const { direct: fixture, lazytools } = summary[spec];
  if (fixture && lazytools && [...fixture.scenarios].some(([scenario, ok]) => ok && !lazytools.scenarios.get(scenario))) process.exitCode = 1;
}
const json = Object.fromEntries(Object.entries(summary).map(([spec, byRun]) => [spec, Object.fromEntries(Object.entries(byRun).map(([name, { passed, total }]) => [name, { passed, total }]))]));
console.log(JSON.stringify({ conformance: json }));
