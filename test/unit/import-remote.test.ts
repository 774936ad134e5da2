import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { importServers } from '../../src/init/import.js';

const FILE = '/project/client.json';

describe('client config import: remote servers', () => {
  it('keeps an HTTP+SSE server as one ("transport": "sse"), saying so', () => {
    const { rc, notes } = importServers({ mcpServers: { old: { type: 'sse', url: 'https://mcp.example.test/sse' }, vs: { transport: 'sse', url: 'https://x.example.test/sse' } } }, FILE);
    expect(rc.servers?.old).toEqual({ url: 'https://mcp.example.test/sse', transport: 'sse' });
    expect(rc.servers?.vs).toEqual({ url: 'https://x.example.test/sse', transport: 'sse' });
    expect(notes).toContain('server "old" is an HTTP+SSE server: imported with "transport": "sse"');
  });

  it('turns an mcp-remote bridge into the remote server it names, signed in by lazytools auth', () => {
    const { rc, notes, secrets } = importServers(
      {
        mcpServers: {
          linear: { command: 'npx', args: ['-y', 'mcp-remote', 'https://mcp.linear.app/sse'] },
          tracker: {
            command: 'npx',
            args: ['mcp-remote@0.1.29', 'https://tracker.example.test/mcp', '3334', '--header', 'X-Team:${TEAM}', '--transport', 'http-only', '--static-oauth-client-info', '{"client_id":"lt-client","client_secret":"s3cr3t-client-secret-value"}', '--debug'],
            env: { TEAM: 'platform' },
          },
          keyed: { command: 'npx', args: ['mcp-remote', 'https://keyed.example.test/mcp', '--header', 'Authorization:Bearer ${AUTH}', '--static-oauth-client-info', '{"client_id":"c"}'], env: { AUTH: 'tok_abcdefghijklmnopqrstuvwxyz0123' } },
        },
      },
      FILE,
    );
    expect(rc.servers?.linear).toEqual({ url: 'https://mcp.linear.app/sse' });
    expect(rc.servers?.tracker).toEqual({
      url: 'https://tracker.example.test/mcp',
      headers: { 'X-Team': 'platform' },
      transport: 'streamable-http',
      oauth: { clientId: 'lt-client', redirectPort: 3334, clientSecret: '${TRACKER_CLIENT_SECRET}' },
    });
    // A fixed Authorization header (a secret, moved to a variable) is sent instead of signing in.
    expect(rc.servers?.keyed).toEqual({ url: 'https://keyed.example.test/mcp', headers: { Authorization: 'Bearer ${KEYED_AUTHORIZATION}' } });
    expect(notes.join('\n')).toContain('server "keyed" ran mcp-remote for https://keyed.example.test/mcp: imported as that remote server (its OAuth client not imported); it sends its Authorization header instead of signing in');
    expect(secrets).toEqual(['TRACKER_CLIENT_SECRET', 'KEYED_AUTHORIZATION']);
    expect(notes).toContain('server "linear" ran mcp-remote for https://mcp.linear.app/sse: imported as that remote server; lazytools signs in to it itself: run lazytools auth linear');
    expect(notes.join('\n')).toContain('server "tracker" ran mcp-remote for https://tracker.example.test/mcp: imported as that remote server (its --debug not imported)');
    // The rc it writes is one lazytools accepts.
    expect(() => parseConfig(rc, FILE)).not.toThrow();
  });

  it('says a bare remote URL needs lazytools\' own sign-in (the client\'s is not shared); not for one with an Authorization header', () => {
    const { notes } = importServers({ mcpServers: { linear: { url: 'https://mcp.linear.app/mcp' }, keyed: { url: 'https://keyed.example.test/mcp', headers: { Authorization: 'Bearer ${KEY}' } } } }, FILE);
    expect(notes).toContain('server "linear" is a remote server without an Authorization header: if it asks for a sign-in, run lazytools auth linear once (the client\'s own sign-in is not shared with lazytools)');
    expect(notes.join('\n')).not.toContain('lazytools auth keyed');
  });

  it('keeps an mcp-remote URL\'s secret a reference and never quotes a dropped flag\'s inline value', () => {
    const token = 'tok_9f8e7d6c5b4a39281706afbe';
    const flag = 'sk-flagsecret1234567890abcd';
    const { rc, notes, secrets } = importServers(
      { mcpServers: { r: { command: 'npx', args: ['-y', 'mcp-remote', 'https://mcp.example.test/u/${TOK}/${TEAM}/mcp', `--header=Authorization:Bearer ${flag}`], env: { TOK: token, TEAM: 'platform' } } } },
      FILE,
    );
    // Not a secret (TEAM) is taken as mcp-remote would; the secret stays for lazytools' environment to give.
    expect(rc.servers?.r).toEqual({ url: 'https://mcp.example.test/u/${TOK}/platform/mcp' });
    expect(secrets).toEqual(['TOK']);
    expect(notes.join('\n')).toContain('(its --header=… not imported)');
    expect(JSON.stringify({ rc, notes })).not.toMatch(new RegExp(`${token}|${flag}`));
  });

  it('leaves other npx entries alone', () => {
    const { rc } = importServers({ mcpServers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] } } }, FILE);
    expect(rc.servers?.files).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] });
  });
});
