import { describe, expect, it } from 'vitest';
import { httpSnippets } from '../../src/cli/snippets.js';

/**
 * The entries `lazytools serve --http` prints for each client, with a bearer token: each must name
 * the token in the syntax that client expands itself, since the printed entry never holds the
 * token. Cursor expands `${env:NAME}` (a bare `${NAME}` is sent as written); Claude Desktop starts
 * mcp-remote without the shell's environment, so the variable mcp-remote expands in `--header`
 * must be in the entry's `env`; VS Code prompts for an `${input:…}` and keeps it out of the file.
 */
const URL_ = 'http://127.0.0.1:8765/mcp';
const snippet = (client: string, token = true) => httpSnippets(URL_, token).find((entry) => entry.client === client)?.snippet ?? '';

describe('serve --http connect snippets', () => {
  it('Cursor reads the token with its own ${env:NAME} syntax', () => {
    const entry = JSON.parse(snippet('Cursor'));
    expect(entry.mcpServers.lazytools).toEqual({ url: URL_, headers: { Authorization: 'Bearer ${env:LAZYTOOLS_TOKEN}' } });
  });

  it('Claude Desktop hands mcp-remote the variable its --header expands', () => {
    const server = JSON.parse(snippet('Claude Desktop')).mcpServers.lazytools;
    expect(server.args).toEqual(['-y', 'mcp-remote', URL_, '--header', 'Authorization:Bearer ${LAZYTOOLS_TOKEN}']);
    expect(server.env).toEqual({ LAZYTOOLS_TOKEN: '<LAZYTOOLS_TOKEN>' });
  });

  it('VS Code prompts for the token as a password input', () => {
    const entry = JSON.parse(snippet('VS Code'));
    expect(entry.inputs).toEqual([{ type: 'promptString', id: 'lazytools-token', description: 'lazytools bearer token (LAZYTOOLS_TOKEN)', password: true }]);
    expect(entry.servers.lazytools).toEqual({ type: 'http', url: URL_, headers: { Authorization: 'Bearer ${input:lazytools-token}' } });
  });

  it('without a token no entry carries a header, an env block or an input', () => {
    for (const client of ['Claude Desktop', 'Cursor', 'VS Code']) expect(snippet(client, false)).not.toMatch(/Authorization|"env"|inputs/);
    expect(snippet('Claude Code', false)).toBe(`claude mcp add --transport http lazytools ${URL_}`);
  });
});
