import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadConfig, parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { ConfigError } from '../../src/util/errors.js';
import { remoteTarget } from '../../src/upstream/auth/target.js';
import { loadPresets } from '../../src/config/presets.js';
import { tempTree } from '../harness/index.js';

/** Every unknown key gets a "did you mean" with its key path; a client config points at init. */
function error(value: unknown): string {
  try {
    parseConfig(value, '/repo/.lazytoolsrc.json');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('config errors', () => {
  it('suggests the closest key at every depth, naming the file and key path', () => {
    const message = error({ sevrers: {}, servers: { a: { comand: 'x' } }, modes: { security_review: { budgte: 5 } }, groups: { g: { toolz: [] } } });
    expect(message.startsWith('/repo/.lazytoolsrc.json: invalid config')).toBe(true);
    expect(message).toContain('✖ Unrecognized key: "sevrers". Did you mean "servers"?');
    expect(message).toContain('✖ Unrecognized key: "comand". Did you mean "command"?\n  → at servers.a');
    expect(message).toContain('✖ Unrecognized key: "budgte". Did you mean "budget"?\n  → at modes.security_review');
    expect(message).toContain('✖ Unrecognized key: "toolz". Did you mean "tools"?\n  → at groups.g');
  });

  it('points a pasted client config (mcpServers) at the lazytools init --from that replaces it', () => {
    // init writes .lazytoolsrc.json and refuses to overwrite one without --force: the hint must run as printed.
    expect(error({ mcpServers: { a: { command: 'x' } } })).toContain('Unrecognized key: "mcpServers": this is a client\'s MCP config, not a lazytools rc; import its servers with `lazytools init --from /repo/.lazytoolsrc.json --out /repo/.lazytoolsrc.json --force` (it replaces this file)');
    const js = (() => {
      try {
        parseConfig({ mcpServers: {} }, '/repo/lazytools.config.mjs');
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    // A JS or TS rc is never overwritten with JSON.
    expect(js).toContain('import its servers with `lazytools init --from /repo/lazytools.config.mjs`');
    expect(js).not.toContain('--force');
  });

  it('a bad name says what a name must be, and a name is at most 64 characters (names reach the model)', () => {
    expect(error({ modes: { 'a b': { groups: ['all'] } } })).toContain('✖ invalid name: letters, digits, "_" or "-" (starting with a letter or digit)\n  → at modes["a b"]');
    const long = `m${'a'.repeat(64)}`;
    expect(error({ modes: { [long]: { groups: ['all'] } } })).toContain(`✖ invalid name: at most 64 characters\n  → at modes.${long}`);
    expect(error({ servers: { [`s${'s'.repeat(64)}`]: { command: 'x' } } })).toContain('invalid name: at most 64 characters');
    expect(error({ groups: { [`g${'g'.repeat(64)}`]: { tools: ['*'] } } })).toContain('invalid name: at most 64 characters');
    // The key path shows the start of a huge key, not all of it.
    const huge = error({ modes: { [`m${'a'.repeat(100_000)}`]: { groups: ['all'] } } });
    expect(huge.length).toBeLessThan(500);
    expect(huge).toContain(`→ at modes["m${'a'.repeat(79)}…"]`);
    expect(() => parseConfig({ modes: { [`m${'a'.repeat(63)}`]: { groups: ['all'] } } })).not.toThrow();
  });

  it('a mode, group or token description is at most 1,000 characters (the groups index and variants pass it on whole)', () => {
    const long = 'd'.repeat(1_001);
    expect(error({ groups: { g: { tools: ['*'], description: long } } })).toContain('✖ at most 1000 characters\n  → at groups.g.description');
    expect(error({ modes: { m: { groups: ['all'], description: long } } })).toContain('→ at modes.m.description');
    expect(() => parseConfig({ groups: { g: { tools: ['*'], description: 'd'.repeat(1_000) } } })).not.toThrow();
  });

  it('a "__proto__" key is a config error naming its key path, not an entry that vanishes', () => {
    expect(error(JSON.parse('{"modes":{"__proto__":{"groups":["all"]}}}'))).toBe('/repo/.lazytoolsrc.json: modes.__proto__: "__proto__" is not a name lazytools can keep (it is JavaScript\'s prototype key): rename it');
    expect(error(JSON.parse('{"groups":{"g":{"tools":["*"]}},"servers":{"a":{"command":"x","env":{"__proto__":"1"}}}}'))).toContain('servers.a.env.__proto__:');
    expect(error(JSON.parse('{"tools":{"a:b":{"examples":[{"__proto__":1}]}}}'))).toContain('tools.a:b.examples[0].__proto__:');
  });

  it('a preset whose file name is no mode name ("__proto__.json") is an invalid preset naming the file, not a prototype', () => {
    const mode = JSON.stringify({ groups: ['g'], description: 'x' });
    const dir = tempTree({ 'fine.json': mode, '__proto__.json': mode, 'groups.json': JSON.stringify({ groups: { g: { tools: ['*'] } } }) });
    expect(() => loadPresets(dir)).toThrow(ConfigError);
    expect(() => loadPresets(dir)).toThrow(`${path.join(dir, '__proto__.json')}: invalid preset: "__proto__" is not a mode name`);
    const fine = loadPresets(tempTree({ 'fine.json': mode, 'toString.json': mode }));
    expect(Object.keys(fine.modes)).toEqual(['fine', 'toString']);
    expect(Object.getPrototypeOf(fine.modes)).toBeNull();
  });

  it('never quotes a key that looks like a secret (a token pasted as a key), in the message or the key path', () => {
    // A GitHub token shape (made here, never committed) and a prefix-less random API key.
    for (const secret of [`ghp_${randomBytes(18).toString('hex')}`, 'Zq7vK2mX9pL4wR8tY3nB6cH1jF5dG0sA']) {
      const cases = [{ [secret]: 1 }, { policy: { [secret]: true } }, { servers: { a: { command: 'node', [secret]: 'x' } } }, { servers: { a: { command: 'node', env: { [secret]: 5 } } } }];
      for (const rc of cases) {
        const message = error(rc);
        expect(message).not.toContain(secret);
        expect(message).not.toContain(secret.slice(0, 12));
        expect(message).toContain(`<a ${secret.length}-character key that looks like a secret, not shown>`);
      }
      // The path around it stays useful.
      expect(error({ servers: { a: { command: 'node', env: { [secret]: 5 } } } })).toMatch(/→ at servers\.a\.env/);
    }
    // Ordinary keys are still quoted, with their suggestion.
    expect(error({ servers: { a: { comand: 'x' } } })).toContain('Unrecognized key: "comand". Did you mean "command"?');
  });

  it('a server url must be http(s): file:, javascript:, ftp: and data: URLs are config errors, not a "fetch failed" at each start', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://example.com/mcp', 'data:text/plain,hi', '${SCHEME}://example.com/mcp']) {
      const message = error({ servers: { a: { url } } });
      expect(message).toContain('expected an http(s) URL');
      expect(message).toContain('→ at servers.a.url');
    }
    for (const url of ['https://example.com/mcp', 'http://127.0.0.1:3000/mcp', 'https://${HOST}/mcp', 'https://example.com/mcp?key=${KEY}', '${SERVER_URL}'])
      expect(parseConfig({ servers: { a: { url } } }).servers?.a?.url).toBe(url);
  });

  it('a server url read whole from the environment ("${SERVER_URL}") is checked once read: http(s), or a config error naming the key and not the value', () => {
    const server = { url: '${SERVER_URL}' };
    expect(remoteTarget('a', server, { SERVER_URL: 'https://example.com/mcp' }, '/repo/.lazytoolsrc.json').url.href).toBe('https://example.com/mcp');
    for (const value of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url secret-4711']) {
      const thrown = (() => {
        try {
          remoteTarget('a', server, { SERVER_URL: value }, '/repo/.lazytoolsrc.json');
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(thrown, value).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).toBe('/repo/.lazytoolsrc.json: servers.a.url: expected an http(s) URL');
    }
  });

  it('an embeddings url must be http(s) too: a file: or javascript: one was taken and failed every search', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://example.com/v1', 'data:text/plain,hi', '${SCHEME}://example.com/v1']) {
      const message = error({ discovery: { embeddings: { url, model: 'm' } } });
      expect(message).toContain('expected an http(s) URL');
      expect(message).toContain('→ at discovery.embeddings.url');
    }
    for (const url of ['http://127.0.0.1:11434/v1', 'https://api.example.com/v1', 'https://${HOST}/v1', '${EMBEDDINGS_URL}'])
      expect(parseConfig({ discovery: { embeddings: { url, model: 'm' } } }).discovery?.embeddings?.url).toBe(url);
  });

  it('lists at most the first 20 problems and 20 unknown keys, then says how many more: 10,000 bad servers do not print a megabyte', () => {
    const servers = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`s${i}`, { command: 42 }]));
    const message = error({ servers });
    expect(message.match(/→ at servers\.s\d+\.command/g)).toHaveLength(20);
    expect(message).toContain('and 9980 more problem(s): fix these and run again');
    expect(message.length).toBeLessThan(4000);
    const keys = error({ servers: { a: { command: 'x', ...Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`extra${i}`, 1])) } } });
    expect(keys.match(/Unrecognized key/g)).toHaveLength(20);
    expect(keys).toContain('and 480 more unrecognized key(s)');
  });

  it('says nothing it cannot back: a key far from every known one gets no suggestion', () => {
    expect(error({ policy: { zzzzzzzzzzzz: 1 } })).toMatch(/Unrecognized key: "zzzzzzzzzzzz"\.\n/);
  });

  it('a JS or TS rc that throws anything, or whose value throws when read, is a ConfigError naming the file', async () => {
    const cases: Array<[string, string, string]> = [
      ['.lazytoolsrc.mjs', 'throw "a string";', 'could not read config: the file threw "a string"'],
      ['.lazytoolsrc.mjs', 'export default Promise.reject(42);', 'could not read config: the file threw 42'],
      ['.lazytoolsrc.ts', 'throw 7;\nexport default {};', 'could not read config: the file threw 7'],
      ['.lazytoolsrc.js', 'module.exports = { servers: { a: { command: "node", env: { get X() { throw new Error("getter"); } } } } };', 'could not read config: getter'],
      ['.lazytoolsrc.mjs', 'export default new Proxy({}, { ownKeys() { throw new Error("keys"); }, get() { throw new Error("get"); } });', 'could not read config: '],
    ];
    for (const [name, text, expected] of cases) {
      const dir = tempTree({ 'package.json': '{}', [name]: text });
      const thrown = await loadConfig({ cwd: dir }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(thrown, text).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message, text).toContain(`${path.join(dir, name)}: ${expected}`);
    }
  });

  it('a JS or TS rc whose exported promise never settles is a ConfigError naming the file, not an exit 0 with nothing said', async () => {
    // On the old main `lazytools check` on such an rc ended at once, exit 0, no output (CI passed).
    for (const [name, text] of [
      ['.lazytoolsrc.mjs', 'export default new Promise(() => {});'],
      ['.lazytoolsrc.ts', 'export default new Promise<object>(() => {});'],
    ]) {
      const dir = tempTree({ 'package.json': '{}', [name as string]: text as string });
      const thrown = await loadConfig({ cwd: dir, loadTimeoutMs: 300 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(thrown, text).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message, text).toBe(`${path.join(dir, name as string)}: could not read config: its value did not come within 0.3 s (a default export that is a promise must settle)`);
    }
  });

  it('server names that differ only in case are a config error naming both: every glob took both servers\' tools', () => {
    const rc = { servers: { notes: { command: 'notes' }, NOTES: { command: 'vault' } }, groups: { reading: { servers: ['notes'] } }, modes: { notes: { groups: ['reading'] } } };
    // What it did: the group written for "notes" held the other server's tools too (and so did a token of mode "notes").
    const tool = { name: 'read', inputSchema: { type: 'object' as const } };
    const before = buildCatalog([{ server: 'NOTES', tools: [tool] }, { server: 'notes', tools: [tool] }], resolveConfig(parseConfig({ ...rc, servers: { notes: { command: 'notes' } } })));
    expect(before.catalog.groups.get('reading')?.tools.map((t) => t.id)).toEqual(['NOTES:read', 'notes:read']);
    expect(() => resolveConfig(parseConfig(rc), '/repo/.lazytoolsrc.json')).toThrow(
      '/repo/.lazytoolsrc.json: servers.NOTES: the same name as servers.notes but for case; globs (a group\'s servers and tools, exclude, pin, alwaysVisible) match server names whatever their case, so each would take the other\'s tools: expected names that differ in more than case',
    );
  });
});

