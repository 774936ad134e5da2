// `npm run conformance`: runs the MCP conformance suite's server scenarios (2025-11-25) against the
// kitchen-sink fixture twice, directly over HTTP and through `lazytools serve --http` (rc
// `defaultMode: "all"`, `strategy: "notify"`, the fixture as a stdio upstream), and prints both
// scores. Needs a build (`npm run build`). Exit 1 when the gateway passes fewer scenarios than the
// fixture does directly.
//
//   node scripts/conformance.mjs [--only direct|gateway] [--scenario NAME] [--verbose]
//
// The conformance CLI 0.1.16 imports `globSync` from "fs", which Node 20 lacks; the server
// scenarios never call it. This script runs a copy of the CLI with that import replaced by a stub,
// written next to the original (so its dependencies resolve the same way); node_modules is not edited.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE = path.join(ROOT, 'test/fixtures/kitchen-sink.mjs');
const BIN = path.join(ROOT, JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin.lazytools);
const SPEC = '2025-11-25';

const { values } = parseArgs({ options: { only: { type: 'string' }, scenario: { type: 'string' }, verbose: { type: 'boolean' } } });

/** Path of a Node 20 compatible copy of the conformance CLI. */
function conformanceCli() {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@modelcontextprotocol/conformance/package.json');
  const original = path.join(path.dirname(pkg), 'dist', 'index.js');
  const source = readFileSync(original, 'utf8');
  const patched = source.replace(/import\{([^}]*?)globSync as (\w+),([^}]*)\}from"fs";/, (_all, before, alias, after) => `import{${before}${after}}from"fs";const ${alias}=()=>[];`);
  if (patched === source && /globSync/.test(source)) throw new Error('conformance CLI: the globSync import has an unexpected shape; update scripts/conformance.mjs');
  const copy = path.join(path.dirname(original), '.lazytools-node20.mjs');
  writeFileSync(copy, patched);
  return copy;
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

function runSuite(cli, url) {
  const args = [cli, 'server', '--url', url, '--spec-version', SPEC];
  if (values.scenario) args.push('--scenario', values.scenario);
  if (values.verbose) args.push('--verbose');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.once('exit', () => resolve(out));
  });
}

/** Scenario lines of the summary: name -> passed (no failed checks). */
function scores(output) {
  const result = new Map();
  for (const match of output.matchAll(/^[✓✗] ([\w-]+): (\d+) passed, (\d+) failed/gmu)) result.set(match[1], Number(match[3]) === 0);
  return result;
}

async function direct(cli) {
  const { child, url } = await startAndWait(process.execPath, [FIXTURE, '--http', '0'], 'stdout', /^(http:\S+)$/m);
  try {
    return await runSuite(cli, url);
  } finally {
    child.kill();
  }
}

async function gateway(cli) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lazytools-conformance-'));
  const rc = path.join(dir, '.lazytoolsrc.json');
  writeFileSync(rc, JSON.stringify({ servers: { kitchen: { command: process.execPath, args: [FIXTURE] } }, defaultMode: 'all', strategy: 'notify' }));
  const { child, url } = await startAndWait(process.execPath, [BIN, 'serve', '--config', rc, '--http', '127.0.0.1:0'], 'stderr', /serving (http:\S+mcp)/);
  try {
    return await runSuite(cli, url);
  } finally {
    child.kill('SIGTERM');
  }
}

const cli = conformanceCli();
const runs = [];
if (values.only !== 'gateway') runs.push(['direct', await direct(cli)]);
if (values.only !== 'direct') runs.push(['lazytools', await gateway(cli)]);
const results = new Map(runs.map(([name, output]) => [name, scores(output)]));
for (const [name, output] of runs) {
  const score = results.get(name);
  const passed = [...score.values()].filter(Boolean).length;
  if (values.verbose) console.log(output);
  console.log(`${name}: ${passed}/${score.size} scenarios pass (${SPEC})`);
  const failed = [...score].filter(([, ok]) => !ok).map(([scenario]) => scenario);
  if (failed.length > 0) console.log(`  failing: ${failed.join(', ')}`);
}
const summary = Object.fromEntries([...results].map(([name, score]) => [name, { passed: [...score.values()].filter(Boolean).length, total: score.size }]));
console.log(JSON.stringify({ conformance: SPEC, ...summary }));
const directScore = results.get('direct');
const gatewayScore = results.get('lazytools');
if (directScore && gatewayScore) {
  const lost = [...directScore].filter(([scenario, ok]) => ok && !gatewayScore.get(scenario)).map(([scenario]) => scenario);
  if (lost.length > 0) process.exitCode = 1;
}
