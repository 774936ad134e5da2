import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLIENT_NAMES, findClientConfig, importServers, type ClientName } from '../config/import.js';
import { parseConfig } from '../config/load.js';
import { readJsonFile } from '../util/json.js';
import { parse, UsageError } from './args.js';
import { initHints } from './init-hints.js';
import type { Command } from './io.js';

export const initCommand: Command = {
  name: 'init',
  usage: `lazytools init [--from claude-desktop|cursor|vscode|claude-code|PATH] [--out F] [--force]

  --from C    client whose MCP servers to import, or a path to its JSON config (default: claude-code's .mcp.json)
  --out F     file to write (default: .lazytoolsrc.json)
  --force     overwrite an existing file`,
  async run(argv, io) {
    const { values } = parse(argv, { from: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' } });
    const from = values.from ?? 'claude-code';
    const isClient = (CLIENT_NAMES as readonly string[]).includes(from);
    const source = isClient ? findClientConfig(from as ClientName, io.cwd) : path.resolve(io.cwd, from);
    if (!isClient && !existsSync(source))
      throw new UsageError(`--from: "${from}" is neither a client (${CLIENT_NAMES.join(', ')}) nor an existing file (${source})`);
    const out = path.resolve(io.cwd, values.out ?? '.lazytoolsrc.json');
    if (existsSync(out) && !values.force) throw new UsageError(`${out} exists; pass --force to overwrite it`);
    const imported = importServers(await readJsonFile(source), source, { cwd: io.cwd });
    parseConfig(imported.rc, out);
    const names = Object.keys(imported.rc.servers ?? {});
    if (names.length === 0) throw new UsageError(`no MCP servers to import in ${source}`);
    writeFileSync(out, `${JSON.stringify(imported.rc, null, 2)}\n`);
    io.err(`wrote ${out} with ${names.length} server(s): ${names.join(', ')}`);
    for (const skipped of imported.skipped) io.err(`skipped ${skipped}`);
    for (const note of imported.notes) io.err(`note: ${note}`);
    for (const warning of imported.warnings) io.err(`warning: ${warning}`);
    if (imported.secrets.length > 0)
      io.err(`env and header values (and credentials in arguments and URLs) moved out of the file; set them in your environment: ${imported.secrets.join(', ')}`);
    const serverKey = from === 'vscode' ? 'servers' : 'mcpServers';
    const snippet = { [serverKey]: { lazytools: { command: 'npx', args: ['-y', 'lazytools', 'serve', '--config', out] } } };
    for (const line of initHints(imported.rc, out)) io.err(line);
    io.out(`Replace the servers in your client config with:\n${JSON.stringify(snippet, null, 2)}`);
    return 0;
  },
};
