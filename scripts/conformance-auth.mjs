// `npm run conformance -- --auth`: the MCP conformance suite's client auth scenarios
// (`@modelcontextprotocol/conformance` 0.1.16, `client --suite auth|backcompat|extensions`) with
// lazytools' upstream connector as the client under test (scripts/conformance-auth-client.mjs:
// `lazytools auth`, then `lazytools serve` calling the server's tool). Scored: every auth scenario
// that is not a draft, i.e. metadata discovery variants, CIMD, scope selection and step-up,
// token endpoint auth basic/post/none, pre-registration, the 2025-03-26 back-compat cases and
// client credentials (client_secret_basic and private_key_jwt). Not scored, and said so:
// cross-app access (SEP-990 needs an enterprise identity provider's ID token, which lazytools has
// no way to hold) and the draft scenarios. A scenario passes when it has no
// failed check and no warning. Last line: `auth: N/M scenarios pass`; exit 1 when one fails.
//
//   node scripts/conformance.mjs --auth [--scenario NAME] [--verbose]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { conformanceCli } from './conformance-cli.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLIENT = path.join(ROOT, 'scripts/conformance-auth-client.mjs');
/**
 * Scenarios run from the 0.2 line (`conformance-next`) instead, with why: 0.1.16's mock of this one
 * publishes authorization server metadata whose `issuer` differs from the URL it is served for,
 * which RFC 8414 section 3.3 forbids and the v2 SDK refuses (the suite fixed its mock in #359).
 */
const FROM_NEXT = new Map([['auth/2025-03-26-oauth-metadata-backcompat', '2025-03-26']]);
/** Extension scenarios not scored, with why. */
const UNSCORED = new Map([['auth/cross-app-access-complete-flow', 'needs an enterprise identity provider\'s ID token (SEP-990)']]);

function run(args, verbose, pkg = '@modelcontextprotocol/conformance') {
  const command = `"${process.execPath}" "${CLIENT}"`;
  const cli = [conformanceCli(pkg), 'client', '--command', command, '--timeout', '120000', ...args];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, cli, { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.once('exit', () => {
      if (verbose) console.log(out);
      resolve(out);
    });
  });
}

/** `✓ name: N passed, M failed[, K warnings]` lines of a suite summary: name -> passed. */
function summary(output) {
  const results = new Map();
  for (const match of output.matchAll(/^([✓✗]) (auth\/[\w-]+): (\d+) passed, (\d+) failed(?:, (\d+) warnings)?/gmu)) results.set(match[2], match[1] === '✓');
  return results;
}

/** One scenario alone: passed when the CLI says so (no failed check, no warning). */
function single(output) {
  const counts = /Passed: \d+\/\d+, (\d+) failed, (\d+) warnings/.exec(output);
  return /OVERALL: PASSED/.test(output) && counts?.[1] === '0' && counts[2] === '0';
}

/** Runs one scenario alone, from the package FROM_NEXT names for it. */
async function runOne(name, verbose) {
  const next = FROM_NEXT.get(name);
  return single(await run(['--scenario', name, ...(next ? ['--spec-version', next] : [])], verbose, next ? 'conformance-next' : undefined));
}

export async function runAuthScenarios({ scenario, verbose } = {}) {
  const results = new Map();
  if (scenario) results.set(scenario, await runOne(scenario, verbose));
  else {
    for (const suite of ['auth', 'backcompat', 'extensions']) for (const [name, ok] of summary(await run(['--suite', suite], verbose))) results.set(name, ok);
    for (const name of FROM_NEXT.keys()) results.set(name, await runOne(name, verbose));
  }
  const scored = [...results].filter(([name]) => !UNSCORED.has(name));
  const passed = scored.filter(([, ok]) => ok);
  for (const [name, ok] of scored) console.log(`${ok ? '✓' : '✗'} ${name}${FROM_NEXT.has(name) ? ' (conformance-next: 0.1.16\'s mock breaks RFC 8414 section 3.3)' : ''}`);
  for (const [name, why] of UNSCORED) if (results.has(name)) console.log(`- ${name}: not scored (${why}; ${results.get(name) ? 'passes' : 'fails'})`);
  const failing = scored.filter(([, ok]) => !ok).map(([name]) => name);
  if (failing.length > 0) console.log(`failing: ${failing.join(', ')}`);
  console.log(`auth: ${passed.length}/${scored.length} scenarios pass`);
  return failing.length > 0 || scored.length === 0 ? 1 : 0;
}
