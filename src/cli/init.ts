import { existsSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_NAMES, withClaudeCodeScopes, clientOfFile, findClientConfig, importServers, type ClientName } from '../init/import.js';
import { schemaReference } from '../init/schema-ref.js';
import { parseConfig } from '../config/load.js';
import { isStrategy, type Strategy } from '../config/strategies.js';
import { echoName } from '../util/errors.js';
import { servedStrategy } from '../focus/scope.js';
import { readJsonFile } from '../util/json.js';
import { writeFileWhole } from '../util/private-file.js';
import { oneLine, outsideText } from '../util/redact.js';
import { firstLines, listSome } from '../util/plural.js';
import { defineCommand, type FlagSpecs, UsageError } from './args.js';
import { initHints, LISTED } from './init-hints.js';
import { type Command, warnLine } from './io.js';
import { checkOutputFile, writeOutputFile } from './output-file.js';
import { launchCommand, snippetHeading, stdioSnippet } from './snippets.js';

const initFlags = {
  from: { type: 'string', value: 'C', help: 'client whose MCP servers to import (claude-desktop, cursor, vscode, claude-code),\nor a path to its JSON config (default: claude-code\'s .mcp.json)' },
  out: { type: 'string', value: 'F', help: 'file to write (default: .lazytoolsrc.json)' },
  strategy: { type: 'string', value: 'S', help: 'notify | proxy | hybrid | auto (default: auto, which serves each client by its name)' },
  force: { type: 'boolean', help: 'overwrite an existing file' },
} as const satisfies FlagSpecs;

export const initCommand: Command = defineCommand('init', initFlags, {}, async ({ values }, io) => {
  const from = values.from ?? 'claude-code';
  const isClient = (CLIENT_NAMES as readonly string[]).includes(from);
  const source = isClient ? findClientConfig(from as ClientName, io.cwd) : path.resolve(io.cwd, from);
  if (!isClient && !existsSync(source))
    throw new UsageError(`--from: "${echoName(from)}" is neither a client (${CLIENT_NAMES.join(', ')}) nor an existing file (${echoName(source)})`);
  if (values.strategy !== undefined && !isStrategy(values.strategy)) throw new UsageError(`--strategy: expected notify, proxy, hybrid or auto, got "${echoName(values.strategy)}"`);
  const forced = values.strategy;
  const out = path.resolve(io.cwd, values.out ?? '.lazytoolsrc.json');
  const output = { flag: '--out', given: values.out ?? '.lazytoolsrc.json', file: out, example: '.lazytoolsrc.json' };
  checkOutputFile(output);
  // A link counts as there, dangling too: a repository can commit `.lazytoolsrc.json -> ~/.bashrc.d/x.sh`.
  if (lstatSync(out, { throwIfNoEntry: false }) !== undefined && !values.force) throw new UsageError(`${out} exists; pass --force to overwrite it`);
  const client = isClient ? (from as ClientName) : clientOfFile(source);
  // Claude Code starts more than .mcp.json holds: user and local scope servers live in
  // ~/.claude.json, with the project servers it keeps off.
  const read = await readJsonFile(source, { comments: true });
  const scopes = client === 'claude-code' && path.basename(source) === '.mcp.json' ? withClaudeCodeScopes(read, io.cwd) : undefined;
  const imported = importServers(scopes?.json ?? read, source, { cwd: io.cwd, disabled: scopes?.disabled });
  imported.notes.unshift(...(scopes?.notes ?? []));
  const picked = forced !== undefined ? { strategy: forced, reason: 'chosen with --strategy' } : importStrategy(client);
  const rc = { $schema: schemaReference(out), ...imported.rc, strategy: picked.strategy };
  parseConfig(rc, out);
  const names = Object.keys(rc.servers ?? {});
  if (names.length === 0) throw new UsageError(`no MCP servers to import in ${source}${imported.skipped.length > 0 ? `: skipped ${outsideText(imported.skipped.join(', '), MAX_LINE)}` : ''}`);
  // Whole, and never through a link at that name (replaced with --force, not followed).
  await writeOutputFile(output, () => writeFileWhole(out, `${JSON.stringify(rc, null, 2)}\n`));
  io.err(`wrote ${out} with ${names.length} server(s): ${listSome(names, LISTED)}`);
  io.err(`strategy "${picked.strategy}": ${picked.reason}`);
  // Each line quotes the client config's names, keys and URLs: cut, whatever their length there.
  // As many lines or names as the client config holds servers, at most LISTED of each (20,000 servers printed 298 KB).
  for (const skipped of firstLines(imported.skipped, LISTED, 'servers')) io.err(`skipped ${oneLine(outsideText(skipped, MAX_LINE))}`);
  for (const note of firstLines(imported.notes, LISTED, 'notes')) io.err(`note: ${oneLine(outsideText(note, MAX_LINE))}`);
  for (const warning of firstLines(imported.warnings, LISTED, 'warnings')) warnLine(io, outsideText(warning, MAX_LINE));
  if (imported.moved.length > 0) io.err(`secrets (env and header values, credentials in arguments and URLs) moved out of the file: ${listSome(imported.moved, LISTED)}`);
  if (imported.secrets.length > 0) io.err(`the rc reads these variables; set them in your environment: ${listSome(imported.secrets, LISTED)}`);
  if (imported.optional.length > 0) io.err(`also read, with a default or set for every server a client starts (no need to set them): ${listSome(imported.optional, LISTED)}`);
  for (const line of initHints(rc, out, io.env)) io.err(line);
  const launch = launchCommand();
  const clients = client === undefined ? CLIENT_NAMES : [client];
  const snippets = clients.map((c) => `${snippetHeading(c)}\n${stdioSnippet(c, launch, ['serve', '--config', out], imported.secrets)}`);
  io.out(`Replace the imported servers in your client with lazytools${imported.secrets.length > 0 ? ' (fill in the <VALUES> from your old config)' : ''}.\n${snippets.join('\n\n')}`);
  return 0;
});

/** Characters of one skipped, note or warning line init prints at most. */
const MAX_LINE = 1_000;


/** The `clientInfo.name` each client `lazytools init --from` reads sends when it connects. */
const CLIENT_INFO_NAMES: Record<ClientName, string> = {
  'claude-desktop': 'claude-ai',
  cursor: 'cursor-vscode',
  vscode: 'Visual Studio Code',
  'claude-code': 'claude-code',
};

/**
 * The rc strategy `lazytools init` writes for the client it imports from, and why: `auto`, which
 * serves each connecting client by its `clientInfo.name` (focus/scope CLIENT_TABLE). A client that
 * ignores list_changed (Claude Desktop, Cursor) gets `proxy` that way, so its one and only list
 * reaches every tool; writing `proxy` itself would do the same for that client but serve every
 * other client the constant list too, and make `status` and `check` report only the meta-tools.
 */
function importStrategy(client: ClientName | undefined): { strategy: Strategy; reason: string } {
  const auto = '"auto" serves each connecting client by its clientInfo.name (README client table; unknown clients get "hybrid")';
  if (client === undefined) return { strategy: 'auto', reason: `${auto}; the client is not known from the file` };
  const served = servedStrategy('auto', 'legacy', CLIENT_INFO_NAMES[client]);
  if (served === 'proxy')
    return { strategy: 'auto', reason: `${auto}: ${client} ignores tools/list_changed, so it gets "proxy", a constant list (focus_mode, search_tools, describe_tools, execute_tool, list_tool_groups) that reaches every tool` };
  return { strategy: 'auto', reason: `${auto}: ${client} gets "${served}"` };
}
