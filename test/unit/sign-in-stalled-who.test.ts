import { describe, expect, it } from 'vitest';
import { fetchWithin, RequestWatch, stalledWho } from '../../src/upstream/auth/deadline.js';

/**
 * A sign-in that failed for lack of an answer names who did not answer: the MCP server or its
 * authorization server (by origin; on a shared origin by the authorization server's metadata
 * paths and the endpoints its discovery named), showing only the origin (a path may hold a key).
 */

const server = { name: 'remote', url: new URL('https://mcp.example.test/mcp/sk-0123456789abcdef') };
const shared = { name: 'remote', url: new URL('https://example.test/mcp') };
const discovery = {
  authorizationServerUrl: 'https://example.test/',
  authorizationServerMetadata: { issuer: 'https://example.test/', authorization_endpoint: 'https://example.test/oauth/authorize', token_endpoint: 'https://example.test/oauth/token', response_types_supported: ['code'] },
};

describe('stalledWho', () => {
  it('names the MCP server by its origin only, and another origin as the authorization server', () => {
    expect(stalledWho(new URL('https://mcp.example.test/mcp/sk-0123456789abcdef?key=1'), server, undefined)).toBe('server "remote" (https://mcp.example.test)');
    expect(stalledWho(new URL('https://mcp.example.test/.well-known/oauth-protected-resource/mcp'), server, undefined)).toBe('server "remote" (https://mcp.example.test)');
    expect(stalledWho(new URL('https://login.example.test/token'), server, undefined)).toBe('the authorization server (https://login.example.test)');
    expect(stalledWho(undefined, server, undefined)).toBe('server "remote" or its authorization server');
  });

  it('on an origin both share, tells them apart by the metadata paths and the discovered endpoints', () => {
    expect(stalledWho(new URL('https://example.test/.well-known/oauth-authorization-server'), shared, undefined)).toBe('the authorization server (https://example.test)');
    expect(stalledWho(new URL('https://example.test/.well-known/openid-configuration'), shared, undefined)).toBe('the authorization server (https://example.test)');
    expect(stalledWho(new URL('https://example.test/oauth/token'), shared, discovery)).toBe('the authorization server (https://example.test)');
    expect(stalledWho(new URL('https://example.test/mcp'), shared, discovery)).toBe('server "remote" (https://example.test)');
  });
});

describe('RequestWatch', () => {
  it('hears the request fetchWithin ended, and forgets one answered in time', async () => {
    const watch = new RequestWatch();
    const never = (_url: string | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)));
    await expect(fetchWithin(20, never, watch)('https://slow.example.test/mcp')).rejects.toThrow();
    expect(watch.culprit?.href).toBe('https://slow.example.test/mcp');
    const quick = new RequestWatch();
    const answer = await fetchWithin(20, async () => new Response('{}'), quick)('https://quick.example.test/mcp');
    expect(await answer.text()).toBe('{}');
    expect(quick.culprit).toBeUndefined();
  });
});
