import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, MCP_REMOTE, tempTree, cliStdio, httpFixture } from '../harness/index.js';

/**
 * An upstream that repeats the value of a `${VAR}` the rc passes to it (env, args and
 * headers) must not get it out of the gateway: not in what a client reads (instructions, lists,
 * search schemas, prompts, resources, completions, results, isError results, JSON-RPC errors with
 * their data) and not in what lazytools writes (the lock).
 */

const ECHO_SERVER = FIXTURES.echoSecretServer;
const SECRET = 'echoed-secret-7d41b9e2';
const PLACEHOLDER = '${LT_ECHO_SECRET}';
const env = { ...process.env, NO_COLOR: '1', LT_ECHO_SECRET: SECRET } as Record<string, string>;

function project(): string {
  const dir = tempTree({ 'package.json': '{}' });
  const rc = {
    servers: { leaky: { command: process.execPath, args: [ECHO_SERVER, '--key=${LT_ECHO_SECRET}'], env: { SECRET_VALUE: '${LT_ECHO_SECRET}' } } },
    usage: true,
  };
  writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify(rc));
  return dir;
}

describe('values of ${VAR} an upstream repeats never leave the gateway', () => {
  let dir: string;
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    dir = project();
    const transport = new StdioClientTransport(cliStdio(['serve', '--ignore-lock', '--strategy', 'proxy'], { cwd: dir, env, stderr: 'pipe' }));
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'redaction', version: '1' });
    await client.connect(transport);
  }, 30_000);
  afterAll(async () => {
    await client?.close();
  });

  it('2025 session over stdio: instructions, lists, search, prompts, resources, completion, results and errors', async () => {
    const seen: unknown[] = [client.getInstructions()];
    seen.push(await client.listTools());
    seen.push(await client.callTool({ name: 'search_tools', arguments: { query: 'echo configured key', detail: 'schema' } }));
    seen.push(await client.callTool({ name: 'describe_tools', arguments: { names: ['echo_secret'] } }));
    // Direct calls of listed tools take the raw relay: the secret must be caught there too.
    seen.push(await client.callTool({ name: 'execute_tool', arguments: { name: 'echo_secret', arguments: {} } }));
    seen.push(await client.callTool({ name: 'echo_secret', arguments: {} }));
    seen.push(await client.callTool({ name: 'fail_secret', arguments: {} }));
    seen.push(await client.callTool({ name: 'throw_secret', arguments: {} }));
    seen.push(await client.listPrompts());
    seen.push(await client.getPrompt({ name: 'secret_prompt', arguments: { topic: 'x' } }));
    seen.push(await client.listResources());
    seen.push(await client.listResourceTemplates());
    seen.push(await client.readResource({ uri: 'secret://key' }));
    seen.push(await client.complete({ ref: { type: 'ref/prompt', name: 'secret_prompt' }, argument: { name: 'topic', value: 'a' } }));
    const all = JSON.stringify(seen);
    expect(all).toContain(PLACEHOLDER);
    expect(all).toContain('the key is ${LT_ECHO_SECRET}');
    expect(all).not.toContain(SECRET);
    expect(stderr).not.toContain(SECRET);
  });

  it('2026-07-28 requests over stdio: a JSON-RPC error carries no secret in message or data', async () => {
    const modern = new ModernClient({ name: 'redaction-modern', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await modern.connect(new ModernStdio({ command: process.execPath, args: [BIN, 'serve', '--ignore-lock'], cwd: dir, env }));
    try {
      const seen: unknown[] = [modern.getDiscoverResult()];
      seen.push(await modern.callTool({ name: 'echo_secret', arguments: {} }));
      const error = await modern.callTool({ name: 'throw_secret', arguments: {} }).then(
        (result) => result,
        (thrown: unknown) => ({ message: (thrown as Error).message, data: (thrown as { data?: unknown }).data }),
      );
      seen.push(error);
      const all = JSON.stringify(seen);
      expect(all).toContain(PLACEHOLDER);
      expect(all).not.toContain(SECRET);
    } finally {
      await modern.close();
    }
  });

  it('lock: the written lock file shows ${VAR}, never the value', () => {
    const result = spawnSync(process.execPath, [BIN, 'lock'], { cwd: dir, encoding: 'utf8', env });
    expect(result.status, result.stderr).toBe(0);
    const lock = readFileSync(path.join(dir, 'lazytools.lock.json'), 'utf8');
    expect(lock).toContain(PLACEHOLDER);
    expect(lock).not.toContain(SECRET);
    expect(`${result.stdout}${result.stderr}`).not.toContain(SECRET);
  });
});

/**
 * A value the upstream JSON-escapes (as Go's encoder writes `&<>`, PHP's `/`, or every character as
 * \uXXXX) decodes to the value itself at the client: the stdio relay's unparsed path must recognize
 * it under the escapes. On the old main a stdio 2025 client read the value in all three.
 */
describe('values of ${VAR} an upstream JSON-escapes', () => {
  const ESCAPED_SECRET = 's3cr&t<k3y>/p4th';
  it.each(['go', 'php', 'unicode'])('(%s escapes) never reach a stdio client, which reads ${VAR} instead', async (style) => {
    const dir = tempTree({ 'package.json': '{}' });
    const rc = { servers: { escaping: { command: process.execPath, args: [FIXTURES.escaping], env: { SECRET_VALUE: '${LT_ESCAPED_SECRET}' } } } };
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify(rc));
    const client = new Client({ name: 'redaction-escapes', version: '1' });
    await client.connect(new StdioClientTransport(cliStdio(['serve', '--ignore-lock'], { cwd: dir, env: { ...env, LT_ESCAPED_SECRET: ESCAPED_SECRET } })));
    try {
      const result = JSON.stringify(await client.callTool({ name: 'echo_escaped', arguments: { style } }));
      expect(result).toContain('the key is ${LT_ESCAPED_SECRET}');
      expect(result).not.toContain(JSON.stringify(ESCAPED_SECRET).slice(1, -1));
    } finally {
      await client.close();
    }
  });
});

/**
 * A credential written in the rc itself (no `${VAR}`: a hand-written rc, not one `init` wrote) is
 * redacted as a variable's value is, shown as its key path: on the old main an upstream that
 * repeated its key or the Authorization header it received put the value in front of the model.
 */
describe('credentials written literally in the rc', () => {
  const LITERAL = 'ghp_l1teralT0ken9d2c7f1a8b3e';
  const BEARER = 'l1teral-bearer-5f0e2d9c';

  it('an env value under a credential key never reaches a client (stdio upstream): its key path does', async () => {
    const dir = tempTree({ 'package.json': '{}' });
    const rc = { servers: { leaky: { command: process.execPath, args: [ECHO_SERVER], env: { SECRET_VALUE: LITERAL, LOG_FORMAT: 'json' } } } };
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify(rc));
    const client = new Client({ name: 'redaction-literal', version: '1' });
    await client.connect(new StdioClientTransport(cliStdio(['serve', '--ignore-lock'], { cwd: dir, env })));
    try {
      const seen = JSON.stringify([client.getInstructions(), await client.callTool({ name: 'echo_secret', arguments: {} }), await client.callTool({ name: 'throw_secret', arguments: {} })]);
      expect(seen).toContain('the key is ${servers.leaky.env.SECRET_VALUE}');
      expect(seen).not.toContain(LITERAL);
    } finally {
      await client.close();
    }
  });

  it("a literal Authorization header's token never reaches a client (remote upstream that repeats it)", async () => {
    const remote = await httpFixture(FIXTURES.remoteServer);
    try {
      const dir = tempTree({ 'package.json': '{}' });
      writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify({ servers: { remote: { url: `${remote.url}/mcp`, headers: { Authorization: `Bearer ${BEARER}` } } } }));
      const client = new Client({ name: 'redaction-literal', version: '1' });
      await client.connect(new StdioClientTransport(cliStdio(['serve', '--ignore-lock'], { cwd: dir, env })));
      try {
        const result = JSON.stringify(await client.callTool({ name: 'whoami', arguments: {} }));
        expect(result).toContain('authorization: ${servers.remote.headers.Authorization}');
        expect(result).not.toContain(BEARER);
      } finally {
        await client.close();
      }
    } finally {
      remote.child.kill();
    }
  });

  it("a header mcp-remote is given as an argument (--header 'Authorization: Bearer …'): its token never reaches a client", async () => {
    // A long random token: the whole argument was registered, and the server's "authorization: Bearer <token>" held the token alone.
    const TOKEN = 'Zr8Qm2vL0xT5nW9kB3yH7cJ4pF6dS1aG';
    const remote = await httpFixture(FIXTURES.remoteServer);
    try {
      const dir = tempTree({ 'package.json': '{}' });
      const args = [MCP_REMOTE, `${remote.url}/mcp`, '--transport', 'http-only', '--header', `Authorization: Bearer ${TOKEN}`];
      writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify({ servers: { bridged: { command: process.execPath, args, env: { MCP_REMOTE_CONFIG_DIR: path.join(dir, 'mcp-auth') } } } }));
      const client = new Client({ name: 'redaction-literal', version: '1' });
      await client.connect(new StdioClientTransport(cliStdio(['serve', '--ignore-lock'], { cwd: dir, env })));
      try {
        const result = JSON.stringify(await client.callTool({ name: 'whoami', arguments: {} }));
        expect(result).toContain('authorization: ${servers.bridged.args[5]}');
        expect(result).not.toContain(TOKEN);
      } finally {
        await client.close();
      }
    } finally {
      remote.child.kill();
    }
  });
});
