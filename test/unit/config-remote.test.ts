import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/util/errors.js';

// The rc keys of remote servers: `transport` and `oauth` (sign-in), checked like every other key.

const FILE = '/repo/.lazytoolsrc.json';

function error(server: unknown): string {
  try {
    parseConfig({ servers: { remote: server } }, FILE);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('rc: remote servers', () => {
  it('takes a transport and a sign-in for a url server', () => {
    const rc = parseConfig(
      {
        servers: {
          old: { url: 'https://old.example.test/sse', transport: 'sse' },
          linear: { url: 'https://mcp.linear.app/mcp', oauth: { scope: 'read write', redirectPort: 3334 } },
          preregistered: { url: 'https://t.example.test/mcp', oauth: { clientId: 'lt', clientSecret: '${T_SECRET}', clientMetadataUrl: 'https://lazytools.example.test/client.json' } },
          ci: { url: 'https://t.example.test/mcp', oauth: { grant: 'client_credentials', clientId: 'bot', privateKey: '${BOT_KEY}', signingAlgorithm: 'RS256' } },
          pinned: { url: 'https://t.example.test/mcp', oauth: { grant: 'client_credentials', clientId: 'bot', clientSecret: '${T_SECRET}', issuer: 'https://login.example.test/tenant' } },
          local: { url: 'http://127.0.0.1:3000/mcp', oauth: { issuer: 'http://127.0.0.1:4000' } },
          keyed: { url: 'https://k.example.test/mcp', headers: { Authorization: 'Bearer ${K}' }, oauth: false },
        },
      },
      FILE,
    );
    expect(Object.keys(rc.servers ?? {})).toHaveLength(7);
  });

  it('names the key and what was expected for a wrong one', () => {
    expect(error({ url: 'https://x.example.test/mcp', transport: 'websocket' })).toMatch(/transport[\s\S]*streamable-http|streamable-http[\s\S]*servers\.remote\.transport/);
    expect(error({ command: 'node', transport: 'sse' })).toContain('"transport" applies to HTTP servers only (this one has "command")');
    expect(error({ command: 'node', oauth: {} })).toContain('"oauth" applies to HTTP servers only');
    expect(error({ url: 'https://x.example.test/mcp', oauth: { clientId: 'a', clientSecret: 'hunter2-literal' } })).toContain('"clientSecret" must come from the environment (${NAME}), not be written in the rc\n  → at servers.remote.oauth.clientSecret');
    expect(error({ url: 'https://x.example.test/mcp', oauth: { grant: 'client_credentials' } })).toContain('client_credentials needs "clientId" (and "clientSecret" or "privateKey")');
    expect(error({ url: 'https://x.example.test/mcp', oauth: { grant: 'client_credentials', clientId: 'a' } })).toContain('client_credentials needs "clientSecret" or "privateKey" (as ${VAR})');
    expect(error({ url: 'https://x.example.test/mcp', oauth: { privateKey: '${K}' } })).toContain('"privateKey" applies to "grant": "client_credentials" only');
    expect(error({ url: 'https://x.example.test/mcp', headers: { authorization: 'Bearer ${K}' }, oauth: {} })).toContain('expected either an "Authorization" header or "oauth", not both');
    expect(error({ url: 'https://x.example.test/mcp', oauth: { clientMetadataUrl: 'http://x.example.test/c.json' } })).toContain('expected an https URL with a path (a client ID metadata document)');
    expect(error({ url: 'https://x.example.test/mcp', oauth: { redirectPort: 70000 } })).toContain('servers.remote.oauth.redirectPort');
    for (const issuer of ['login.example.test', 'http://login.example.test', 'https://u:p@login.example.test', 'https://login.example.test/?tenant=a', 'https://login.example.test/#a', 'ftp://127.0.0.1', '${ISSUER}'])
      expect(error({ url: 'https://x.example.test/mcp', oauth: { issuer } })).toContain(
        'expected the issuer URL of the authorization server the client belongs to: https (http only on this machine: localhost, 127.0.0.1, [::1]), without user name, query or fragment\n  → at servers.remote.oauth.issuer',
      );
  });
});
