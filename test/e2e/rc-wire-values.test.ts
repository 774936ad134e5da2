import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, rcProject } from '../harness/index.js';

/**
 * Values the rc hands to the OS or the wire as they are: a NUL in a command, argument, working
 * folder or env entry, and a header name or value fetch refuses (a line break, a NUL, a character
 * past Latin-1). Node and fetch refuse them with an error that quotes the whole value, so a
 * literal token beside a stray NUL or a pasted line break was printed by `serve` and `lock`.
 * Each is a config error now: exit 2, the file and the key path, never the value.
 */

const SECRET = 'sk-plantedSecret4f9a1c7e';
const env = { ...process.env, NO_COLOR: '1', PLANTED_CRLF: `Bearer ${SECRET}\r\nX-Injected: 1`, PLANTED_WIDE: `${SECRET}€` } as Record<string, string>;

const cases: Array<[string, Record<string, unknown>, string]> = [
  ['a NUL in an env value', { command: process.execPath, env: { TOKEN: `${SECRET}\u0000x` } }, 'servers.a.env.TOKEN'],
  ['a NUL in an argument', { command: process.execPath, args: ['--token', `${SECRET}\u0000`] }, 'servers.a.args[1]'],
  ['a NUL in the working folder', { command: process.execPath, cwd: `/tmp/${SECRET}\u0000` }, 'servers.a.cwd'],
  ['a NUL in the command', { command: `node\u0000${SECRET}` }, 'servers.a.command'],
  ['a line break in a header value', { url: 'http://127.0.0.1:9/mcp', headers: { 'X-Api-Key': `${SECRET}\r\nX-Injected: 1` } }, 'servers.a.headers.X-Api-Key'],
  ['a NUL in a header value', { url: 'http://127.0.0.1:9/mcp', headers: { 'X-Api-Key': `${SECRET}\u0000` } }, 'servers.a.headers.X-Api-Key'],
  ['a header name that is no token', { url: 'http://127.0.0.1:9/mcp', headers: { 'X-Api Key': SECRET } }, 'servers.a.headers'],
  ['a line break in a header value from the environment', { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: '${PLANTED_CRLF}' } }, 'servers.a.headers.Authorization'],
  ['a character past Latin-1 in a header value from the environment', { url: 'http://127.0.0.1:9/mcp', headers: { 'X-Api-Key': '${PLANTED_WIDE}' } }, 'servers.a.headers.X-Api-Key'],
];

describe('rc values the OS or fetch would refuse are config errors that never quote the value', () => {
  for (const [what, server, keyPath] of cases) {
    it(what, () => {
      const { dir, file } = rcProject({ servers: { a: server } });
      for (const command of ['lock', 'serve']) {
        const result = spawnSync(process.execPath, [BIN, command], { cwd: dir, encoding: 'utf8', env, input: '', timeout: 30_000 });
        const output = `${result.stdout}\n${result.stderr}`;
        expect(output).not.toContain(SECRET);
        expect(output).not.toContain('plantedSecret');
        expect(result.status, `${command}: ${output}`).toBe(2);
        expect(output).toContain(file);
        // zod writes a key with a dash as ["X-Api-Key"].
        expect(output.replace(/\["([^"]*)"\]/g, '.$1')).toContain(keyPath);
        expect(output).not.toMatch(/\n\s+at .+:\d+:\d+/);
      }
    });
  }

  it('ordinary header values, with ${VAR}, still load', () => {
    const { dir } = rcProject({ servers: { a: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${PLANTED_OK}', 'X-Tag': "a!#$%&'*+.^_`|~ b\tc é" } } } });
    const result = spawnSync(process.execPath, [BIN, 'check', '--json'], { cwd: dir, encoding: 'utf8', env: { ...env, PLANTED_OK: SECRET }, timeout: 30_000 });
    expect(result.stderr).not.toContain('headers');
    expect(result.stderr).not.toContain(SECRET);
  });
});
