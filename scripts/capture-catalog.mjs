// Captures `tools/list` of MCP servers installed from npm into a catalog file with provenance.
//
//   node scripts/capture-catalog.mjs SERVERS.json OUT.json
//
// SERVERS.json: { "dir": "<folder with one npm install per package>", "servers": { "<name>": {
//   "package": "<npm name>", "bin": "<bin name, default: the package's only bin>",
//   "args": [...], "env": { "DUMMY_TOKEN": "x" }, "exec": "<optional: a native executable inside the package,
//   run directly instead of a node bin>" } } }
// Each package is expected under <dir>/<package with "/" and "@" as "_">/node_modules (install it
// there first, outside the repository: `npm install --ignore-scripts <package>`). Servers that fail
// to start or list within 30 s are reported and left out. Only dummy values belong in "env":
// a server that needs real credentials to list its tools is skipped, not captured. A "license" in
// SERVERS.json is recorded only for a package whose package.json declares none (its LICENSE file does).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const [specFile, outFile] = process.argv.slice(2);
if (!specFile || !outFile) {
  console.error('usage: node scripts/capture-catalog.mjs SERVERS.json OUT.json');
  process.exit(2);
}
const spec = JSON.parse(readFileSync(specFile, 'utf8'));
const dir = path.resolve(path.dirname(specFile), spec.dir);
const out = { note: spec.note ?? 'tools/list of public MCP servers from npm, captured over stdio with dummy environment values', servers: {} };
const failures = [];

for (const [name, server] of Object.entries(spec.servers)) {
  const home = path.join(dir, server.package.replace(/[/@]/g, '_'));
  const pkgDir = path.join(home, 'node_modules', server.package);
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  } catch {
    failures.push(`${name}: ${server.package} is not installed under ${home}`);
    continue;
  }
  const bins = typeof pkg.bin === 'string' ? { [pkg.name]: pkg.bin } : (pkg.bin ?? {});
  const binPath = server.exec ?? (server.bin ? bins[server.bin] : Object.values(bins)[0]);
  if (!binPath) {
    failures.push(`${name}: ${server.package} has no bin ${server.bin ?? ''}`);
    continue;
  }
  const transport = new StdioClientTransport({
    command: server.exec ? path.join(pkgDir, binPath) : process.execPath,
    args: server.exec ? (server.args ?? []) : [path.join(pkgDir, binPath), ...(server.args ?? [])],
    cwd: home,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...(server.env ?? {}) },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'lazytools-capture', version: '1.0.0' });
  try {
    const tools = await withTimeout(
      (async () => {
        await client.connect(transport);
        const all = [];
        let cursor;
        do {
          const page = await client.listTools(cursor ? { cursor } : {});
          all.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor);
        return all;
      })(),
      30_000,
    );
    tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    out.servers[name] = { package: pkg.name, version: pkg.version, license: typeof pkg.license === 'string' ? pkg.license : server.license, tools };
    console.error(`${name}: ${tools.length} tools (${pkg.name}@${pkg.version})`);
  } catch (error) {
    failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.close().catch(() => {});
  }
}

const sorted = Object.fromEntries(Object.entries(out.servers).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(outFile, `${JSON.stringify({ ...out, servers: sorted }, null, 2)}\n`);
const count = Object.values(sorted).reduce((n, s) => n + s.tools.length, 0);
console.error(`wrote ${outFile}: ${count} tools from ${Object.keys(sorted).length} servers`);
for (const failure of failures) console.error(`skipped ${failure}`);

function withTimeout(promise, ms) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no tools/list answer within ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}
