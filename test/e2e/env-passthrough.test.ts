import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { configSchema } from '../../src/config/schema.js';
import { createUpstreams } from '../../src/upstream/connect.js';
import type { Upstream } from '../../src/upstream/upstream.js';
import { FIXTURES } from '../harness/index.js';

/**
 * Issue 19: stdio servers get the SDK's safe environment, the rc `env`, and the variables
 * `envPassthrough` names (the entry's list, else the top-level one), names or globs; nothing else.
 */
const SERVER = { command: process.execPath, args: [FIXTURES.lingering] };
const ENV = { PATH: process.env.PATH, KUBECONFIG: '/home/u/.kube/config', AWS_REGION: 'eu-west-1', AWS_PROFILE: 'dev', HTTPS_PROXY: 'http://proxy:3128', SECRET_ELSEWHERE: 'x' };
const started: Upstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((upstream) => upstream.stop()));
});

async function childEnv(rc: Parameters<typeof resolveConfig>[0], server: string): Promise<string[]> {
  const upstream = createUpstreams(resolveConfig(rc), { env: ENV }).find((u) => u.name === server)!;
  started.push(upstream);
  const result = (await upstream.call({ name: 'env', arguments: {} })) as { content: Array<{ text: string }> };
  return JSON.parse(result.content[0]!.text) as string[];
}

describe('issue 19: environment pass-through', () => {
  it('passes the named variables and globs through, and nothing else of ours', async () => {
    const names = await childEnv({ servers: { k8s: { ...SERVER, envPassthrough: ['KUBECONFIG', 'AWS_*'] } } }, 'k8s');
    expect(names).toEqual(expect.arrayContaining(['KUBECONFIG', 'AWS_REGION', 'AWS_PROFILE', 'PATH']));
    expect(names).not.toContain('HTTPS_PROXY');
    expect(names).not.toContain('SECRET_ELSEWHERE');
  });

  it('uses the top-level list for servers without their own, and an entry\'s list instead of it', async () => {
    const rc = { envPassthrough: ['HTTPS_PROXY'], servers: { plain: SERVER, own: { ...SERVER, envPassthrough: ['KUBECONFIG'] } } };
    const plain = await childEnv(rc, 'plain');
    expect(plain).toContain('HTTPS_PROXY');
    expect(plain).not.toContain('KUBECONFIG');
    const own = await childEnv(rc, 'own');
    expect(own).toContain('KUBECONFIG');
    expect(own).not.toContain('HTTPS_PROXY');
  });

  it('without envPassthrough a child gets none of them (the safe environment only)', async () => {
    const names = await childEnv({ servers: { bare: SERVER } }, 'bare');
    for (const name of ['KUBECONFIG', 'AWS_REGION', 'HTTPS_PROXY', 'SECRET_ELSEWHERE']) expect(names).not.toContain(name);
  });

  it('rejects envPassthrough on an HTTP server and names that are not names or globs', () => {
    const http = configSchema.safeParse({ servers: { remote: { url: 'https://example.test/mcp', envPassthrough: ['X'] } } });
    expect(http.success).toBe(false);
    expect(JSON.stringify(http.error?.issues)).toContain('\\"envPassthrough\\" applies to stdio servers only');
    const bad = configSchema.safeParse({ envPassthrough: ['A B'] });
    expect(bad.success).toBe(false);
  });
});

/**
 * What passes through is bounded and redacted. On the old main `["*"]` handed a server the whole
 * environment, the gateway's own bearer token included, and a value passed through (an AWS key
 * under `["AWS_*"]`, as `init` suggests) reached clients and /readyz as it was.
 */
describe('environment pass-through keeps the gateway\'s secrets', () => {
  it('refuses a glob of wildcards only ("*"): it would pass the whole environment', () => {
    for (const envPassthrough of [['*'], ['**'], ['?*']]) {
      const top = configSchema.safeParse({ envPassthrough });
      expect(top.success, envPassthrough[0]).toBe(false);
      expect(JSON.stringify(top.error?.issues)).toContain('would pass the whole environment');
      expect(configSchema.safeParse({ servers: { s: { ...SERVER, envPassthrough } } }).success).toBe(false);
    }
    expect(configSchema.safeParse({ envPassthrough: ['AWS_*', 'K?BECONFIG'] }).success).toBe(true);
  });

  it("never passes lazytools' own variables (its bearer token) nor a variable holding a token of the rc", async () => {
    const token = 'rc-token-value-4242';
    const sha256 = createHash('sha256').update(token).digest('hex');
    const env = { ...ENV, LAZYTOOLS_TOKEN: 'gateway-token', LAZYTOOLS_CACHE_DIR: '/tmp/x', MY_TOKEN: token, MY_OTHER: 'fine' };
    const upstream = createUpstreams(resolveConfig({ auth: { tokens: { ci: { sha256, modes: ['all'] } } }, servers: { s: { ...SERVER, envPassthrough: ['LAZY*', 'MY_*'] } } }), { env }).find((u) => u.name === 's')!;
    started.push(upstream);
    const names = JSON.parse(((await upstream.call({ name: 'env', arguments: {} })) as { content: Array<{ text: string }> }).content[0]!.text) as string[];
    expect(names).toContain('MY_OTHER');
    for (const name of ['LAZYTOOLS_TOKEN', 'LAZYTOOLS_CACHE_DIR', 'MY_TOKEN']) expect(names).not.toContain(name);
  });

  it('shows a value passed through as ${NAME} in what the server sends back, as a ${VAR} of the rc is', async () => {
    const secret = 'AKIA-passed-through-9f3e';
    const upstream = createUpstreams(resolveConfig({ servers: { leaky: { command: process.execPath, args: [FIXTURES.echoSecretServer], envPassthrough: ['SECRET_*'] } } }), { env: { ...ENV, SECRET_VALUE: secret } })[0]!;
    started.push(upstream);
    const result = JSON.stringify(await upstream.call({ name: 'echo_secret', arguments: {} }));
    expect(result).toContain('the key is ${SECRET_VALUE}');
    expect(result).not.toContain(secret);
    expect(upstream.instructions).toBe('Use key ${SECRET_VALUE} wisely.');
  });
});
