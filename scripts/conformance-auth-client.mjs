// The client under test in `npm run conformance -- --auth`: lazytools' own upstream connector, as a
// user runs it. The conformance suite calls `node conformance-auth-client.mjs <server URL>` with
// the scenario in MCP_CONFORMANCE_SCENARIO and its credentials (pre-registered client, client
// credentials) in MCP_CONFORMANCE_CONTEXT. This writes an rc naming that server (`conf`), then:
//
//   1. `lazytools auth conf` signs in (the browser is test/fixtures/headless-browser.mjs, which
//      follows the authorization server's redirect back to lazytools' loopback callback);
//   2. `lazytools serve` (stdio) is started and asked, by an SDK client, for its tools and to call
//      the server's `test-tool`: the gateway sends the stored token, refreshes it, and reports a
//      server that asks for more (403 insufficient_scope) as needing sign-in;
//   3. on such a report, `lazytools auth conf` again (asking for the recorded scope) and the call
//      once more, as a user would.
//
// Sign-ins go to a temporary LAZYTOOLS_CONFIG_DIR. Exit 0 when the tool answered.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).bin.lazytools);
const BROWSER = path.join(ROOT, 'test/fixtures/headless-browser.mjs');
/** The client ID metadata document URL the suite's CIMD scenario expects (it is never fetched). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const dir = mkdtempSync(path.join(tmpdir(), 'lazytools-conformance-auth-'));
const env = { ...process.env, LAZYTOOLS_CONFIG_DIR: path.join(dir, 'config'), LAZYTOOLS_CACHE_DIR: '', LAZYTOOLS_BROWSER: `${process.execPath} ${BROWSER}` };

/** The rc's `oauth` for the scenario: its pre-registered client or client credentials, else discovery. */
function oauth() {
  if (scenario === 'auth/pre-registration') {
    env.CONF_CLIENT_SECRET = context.client_secret;
    return { clientId: context.client_id, clientSecret: '${CONF_CLIENT_SECRET}' };
  }
  if (scenario === 'auth/client-credentials-basic') {
    env.CONF_CLIENT_SECRET = context.client_secret;
    return { grant: 'client_credentials', clientId: context.client_id, clientSecret: '${CONF_CLIENT_SECRET}' };
  }
  if (scenario === 'auth/client-credentials-jwt') {
    env.CONF_PRIVATE_KEY = context.private_key_pem;
    return { grant: 'client_credentials', clientId: context.client_id, privateKey: '${CONF_PRIVATE_KEY}', signingAlgorithm: context.signing_algorithm ?? 'ES256' };
  }
  return { clientMetadataUrl: CLIENT_METADATA_URL };
}

const rc = path.join(dir, '.lazytoolsrc.json');
writeFileSync(rc, JSON.stringify({ servers: { conf: { url, oauth: oauth() } }, defaultMode: 'all', strategy: 'notify' }));

function lazytools(...args) {
  const run = spawnSync(process.execPath, [BIN, ...args, '--config', rc], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
  process.stderr.write(`$ lazytools ${args.join(' ')} -> ${run.status}\n${run.stdout}${run.stderr}`);
  return run.status;
}

/** Lists the gateway's tools and calls the server's test tool; the result's text, or throws. */
async function callThroughGateway() {
  const client = new Client({ name: 'conformance-auth-driver', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--config', rc], cwd: dir, env, stderr: 'inherit' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'test-tool' || t.name.endsWith('test-tool'));
    if (!tool) return { isError: true, text: `no test-tool among ${tools.map((t) => t.name).join(', ')}` };
    const result = await client.callTool({ name: tool.name, arguments: {} });
    return { isError: result.isError === true, text: result.content?.map((part) => part.text ?? '').join(' ') ?? '' };
  } finally {
    await client.close();
  }
}

let status = 1;
try {
  if (lazytools('auth', 'conf') === 0) {
    let result = await callThroughGateway();
    process.stderr.write(`call: ${JSON.stringify(result)}\n`);
    if (result.isError && /needs sign-in/.test(result.text) && lazytools('auth', 'conf') === 0) {
      result = await callThroughGateway();
      process.stderr.write(`call again: ${JSON.stringify(result)}\n`);
    }
    status = result.isError ? 1 : 0;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(status);
