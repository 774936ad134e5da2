import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { ConfigError } from '../../src/util/errors.js';
import { tempTree } from '../harness/index.js';

/**
 * rc errors reach terminals and CI logs. Names an error quotes (an unknown group, mode or
 * `extends`) and the lines a parse error shows around its fault never show a value that looks
 * like a credential (a token pasted where a name or next to the fault goes): before, `modes.m.groups[0]:
 * unknown group "ghp_…"` and the file's lines around a JSON or YAML syntax error were shown whole.
 */

// Credential shapes made here, never committed: a GitHub token, a prefix-less random key, a URL with a password.
const GITHUB = `ghp_${randomBytes(18).toString('hex')}`;
// A key holds a digit and a letter, as randomLooking asks (a name of letters alone is an identifier):
// base64 of 24 random bytes has no digit about once in 230, which failed one CI run.
const RANDOM = `${randomBytes(24).toString('base64').replace(/[+/=]/g, 'x').slice(0, 30)}7q`;
const PASSWORD = `p${randomBytes(6).toString('hex')}`;

function resolveError(rc: Record<string, unknown>): string {
  try {
    resolveConfig(parseConfig(rc, '/repo/.lazytoolsrc.json'), '/repo/.lazytoolsrc.json');
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

async function loadError(name: string, text: string): Promise<string> {
  const dir = tempTree({ 'package.json': '{}', [name]: text });
  try {
    await loadConfig({ file: path.join(dir, name) });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

function expectHidden(message: string, secret: string): void {
  expect(message).not.toContain(secret);
  expect(message).not.toContain(secret.slice(0, 10));
}

describe('config errors never echo a secret-looking name', () => {
  const base = { servers: { a: { command: 'node' } }, groups: { files: { servers: ['a'] } }, modes: { work: { groups: ['files'] } }, defaultMode: 'work' };
  for (const secret of [GITHUB, RANDOM]) {
    it(`a ${secret === GITHUB ? 'GitHub token' : 'random key'} as a group, mode, extends or token mode`, () => {
      const cases = [
        { ...base, modes: { work: { groups: [secret] } } },
        { ...base, defaultMode: secret },
        { ...base, modes: { work: { groups: ['files'] }, more: { extends: secret } } },
        { ...base, auth: { tokens: { ci: { sha256: 'a'.repeat(64), modes: [secret] } } } },
        { ...base, variants: { enabled: true, modes: [secret] } },
      ];
      for (const rc of cases) {
        const message = resolveError(rc);
        expectHidden(message, secret);
        expect(message).toContain(`<a ${secret.length}-character name that looks like a secret, not shown>`);
      }
      // A mode or group whose own name looks like a secret is not listed as a known one either.
      const listed = resolveError({ ...base, groups: { ...base.groups, [secret]: { servers: ['a'] } }, modes: { work: { groups: ['zzzzzzzzzzzz'] } } });
      expectHidden(listed, secret);
      expect(listed).toContain('Known: ');
    });
  }

  it('ordinary names are still quoted, with their suggestion; long ones cut, long lists bounded', () => {
    expect(resolveError({ ...base, modes: { work: { groups: ['flies'] } } })).toContain('modes.work.groups[0]: unknown group "flies". Did you mean "files"');
    const long = 'x'.repeat(5_000);
    const message = resolveError({ ...base, defaultMode: long });
    expect(message).toContain(`defaultMode: unknown mode "${'x'.repeat(80)}…"`);
    expect(message.length).toBeLessThan(2_000);
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`group${String(i).padStart(3, '0')}`, { servers: ['a'] }]));
    const listed = resolveError({ ...base, groups: many, modes: { work: { groups: ['zzzzzzzzzzzz'] } } });
    expect(listed).toMatch(/Known: .* and \d+ more\.$/);
    expect(listed.length).toBeLessThan(2_000);
  });
});

describe('config parse errors never show a secret-looking value from the lines around the fault', () => {
  const json = (value: string) => `{\n  "servers": {\n    "gh": {\n      "url": "https://ada:${PASSWORD}@example.com/mcp",\n      "env": { "GITHUB_TOKEN": "${value}", "DB_PASSWORD": "${PASSWORD}" },,\n      "command": "npx"\n    }\n  }\n}\n`;
  const yaml = (value: string) => `servers:\n  gh:\n    command: npx\n    env:\n      GITHUB_TOKEN: ${value}\n      DB_PASSWORD: ${PASSWORD}\n  bad: [\n`;
  for (const secret of [GITHUB, RANDOM]) {
    it(`JSON and YAML, a ${secret === GITHUB ? 'GitHub token' : 'random key'} and a password nearby`, async () => {
      for (const [name, text] of [['.lazytoolsrc.json', json(secret)], ['.lazytoolsrc.yaml', yaml(secret)]] as const) {
        const message = await loadError(name, text);
        expect(message).toContain('could not read config: ');
        expectHidden(message, secret);
        expect(message).not.toContain(PASSWORD);
        // Still useful: the lines around the fault, with their numbers and the secret keys' names.
        expect(message).toMatch(/\d+ \|/);
        expect(message).toContain('GITHUB_TOKEN');
        expect(message).toContain('<secret not shown>');
      }
    });
  }

  it('YAML frames cut long lines around the fault: the word cut at either end is not shown (a URL\'s password showed whole, its scheme cut away)', async () => {
    const pairs = 'A: b, C: d, E: f, G: h, I: j, K: l, M: n, O: p, Q: r, S: t, U: v, W: x, Y: z';
    const head = await loadError('.lazytoolsrc.yaml', `servers:\n  a:\n    command: x\n    env: {${pairs}, Z: "postgres://user:${PASSWORD}@db/x", Q2: [}\n`);
    expect(head).toMatch(/\| +\.\.\. <cut>/);
    const tail = await loadError('.lazytoolsrc.yaml', `servers:\n  a:\n    command: x\n    env:\n      PLAIN: x\n      DB: "postgres://u:${PASSWORD}${PASSWORD}@h/db\n    args: [a\n`);
    expect(tail).toMatch(/<cut> \.\.\./);
    for (const message of [head, tail]) {
      expect(message).toMatch(/\d+ \|/);
      expect(message).not.toContain(PASSWORD.slice(0, 6));
    }
  });
});

