import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { configSchema } from '../../src/config/schema.js';
import { createUpstreams } from '../../src/upstream/connect.js';
import type { Upstream } from '../../src/upstream/upstream.js';
import { FIXTURES } from '../harness/index.js';

/**
 * Stdio servers get the SDK's safe environment, the rc `env`, and the variables
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

describe('environment pass-through', () => {
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
