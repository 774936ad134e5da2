import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { ConfigError } from '../../src/util/errors.js';
import { tempTree } from '../harness/index.js';

const rc = { defaultMode: 'debugging', budget: 1234 };
const json = JSON.stringify(rc);
const yaml = 'defaultMode: debugging\nbudget: 1234\n';
const esm = `export default ${json};\n`;
const ts = `interface Rc { defaultMode: string; budget: number }\nconst rc: Rc = ${json};\nexport default rc;\n`;

describe('config discovery', () => {
  const kinds: Record<string, string> = {
    '.lazytoolsrc': json,
    '.lazytoolsrc.json': json,
    '.lazytoolsrc.yaml': yaml,
    '.lazytoolsrc.yml': yaml,
    '.lazytoolsrc.mjs': esm,
    '.lazytoolsrc.ts': ts,
    'lazytools.config.js': esm,
    'lazytools.config.mjs': esm,
    'lazytools.config.ts': ts,
  };
  for (const [file, content] of Object.entries(kinds)) {
    it(`finds ${file}`, async () => {
      const dir = tempTree({ 'package.json': '{"type":"module"}', [file]: content });
      const loaded = await loadConfig({ cwd: dir });
      expect(loaded.file).toBe(path.join(dir, file));
      expect(loaded.config).toEqual(rc);
    });
  }

  it('reads the lazytools key of package.json', async () => {
    const dir = tempTree({ 'package.json': JSON.stringify({ name: 'x', lazytools: rc }) });
    const loaded = await loadConfig({ cwd: dir });
    expect(loaded.file).toBe(path.join(dir, 'package.json'));
    expect(loaded.config).toEqual(rc);
  });

  it('searches parent folders up to the project root', async () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': json, 'packages/app/src/index.ts': '' });
    const loaded = await loadConfig({ cwd: path.join(dir, 'packages/app/src') });
    expect(loaded.file).toBe(path.join(dir, '.lazytoolsrc.json'));
  });

  it('does not search above the project root', async () => {
    const dir = tempTree({ '.lazytoolsrc.json': json, 'project/package.json': '{}' });
    const loaded = await loadConfig({ cwd: path.join(dir, 'project') });
    expect(loaded.file).toBeUndefined();
    expect(loaded.config).toEqual({});
  });

  it('lets --config win over discovery', async () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': json, 'other.json': '{"budget": 99}' });
    const loaded = await loadConfig({ cwd: dir, file: 'other.json' });
    expect(loaded.file).toBe(path.join(dir, 'other.json'));
    expect(loaded.config).toEqual({ budget: 99 });
  });
});

describe('config errors', () => {
  async function error(files: Record<string, string>, file?: string): Promise<ConfigError> {
    const dir = tempTree({ 'package.json': '{}', ...files });
    try {
      const loaded = await loadConfig({ cwd: dir, file });
      resolveConfig(loaded.config, loaded.file);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return e as ConfigError;
    }
    throw new Error('expected a ConfigError');
  }

  it('names the file and a misspelled key with its path', async () => {
    const e = await error({ '.lazytoolsrc.json': '{"servers":{"gh":{"comand":"x"}}}' });
    expect(e.message).toContain('.lazytoolsrc.json');
    expect(e.message).toContain('Unrecognized key: "comand"');
    expect(e.message).toContain('at servers.gh');
  });

  it('says what type was expected', async () => {
    const e = await error({ '.lazytoolsrc.json': '{"modes":{"security_review":{"budget":"lots"}}}' });
    expect(e.message).toMatch(/expected number, received string\s+→ at modes\.security_review\.budget/);
  });

  it('requires command or url on a server', async () => {
    const e = await error({ '.lazytoolsrc.json': '{"servers":{"gh":{"args":["x"]}}}' });
    expect(e.message).toContain('expected either "command" (stdio) or "url" (Streamable HTTP)');
    expect(e.message).toContain('at servers.gh');
  });

  it('refuses stdio keys on an HTTP server', async () => {
    const e = await error({ '.lazytoolsrc.json': '{"servers":{"gh":{"url":"https://x.test/mcp","args":["x"]}}}' });
    expect(e.message).toContain('"args" applies to stdio servers only');
  });

  it('reports JSON syntax errors with the file', async () => {
    const e = await error({ '.lazytoolsrc.json': '{"budget": 12,}' });
    expect(e.message).toContain('.lazytoolsrc.json');
    expect(e.message).not.toMatch(/\n\s+at /);
  });

  it('reports YAML syntax errors with the file', async () => {
    const e = await error({ '.lazytoolsrc.yaml': 'budget: [1, 2\n' });
    expect(e.message).toContain('.lazytoolsrc.yaml');
  });

  it('reports a missing --config file', async () => {
    const e = await error({}, 'nope.json');
    expect(e.message).toContain('nope.json');
    expect(e.message).toContain('not found');
  });

  it('names an unknown group in a mode with the closest names', async () => {
    const e = await error({ '.lazytoolsrc.json': '{"modes":{"mine":{"groups":["securty"]}}}' });
    expect(e.message).toContain('modes.mine.groups[0]: unknown group "securty". Did you mean "security"');
  });

  it('names an unknown default mode', async () => {
    const e = await error({ '.lazytoolsrc.json': '{"defaultMode":"debuging"}' });
    expect(e.message).toContain('defaultMode: unknown mode "debuging". Did you mean "debugging"');
  });

  it('finds extends cycles', async () => {
    const e = await error({ '.lazytoolsrc.json': '{"modes":{"a":{"extends":"b"},"b":{"extends":"a"}}}' });
    expect(e.message).toMatch(/modes\.\w\.extends: cycle/);
  });

  it('requires groups or extends on a new mode', async () => {
    const e = await error({ '.lazytoolsrc.json': '{"modes":{"mine":{"budget":10}}}' });
    expect(e.message).toContain('modes.mine: expected "groups"');
  });

  it('rejects mode names that cannot be states', async () => {
    const e = await error({ '.lazytoolsrc.json': '{"modes":{"my.mode":{"groups":["ci"]}}}' });
    expect(e.message).toContain('modes');
  });
});

describe('config resolution', () => {
  it('merges rc modes over presets key by key', () => {
    const config = resolveConfig({ modes: { security_review: { budget: 100 } } });
    const mode = config.modes.security_review!;
    expect(mode.budget).toBe(100);
    expect(mode.groups).toEqual(['security', 'code', 'context', 'local_code', 'access']);
    expect(mode.readOnly).toBe(true);
    expect(mode.aliases).toContain('security audit');
  });

  it('adds parent groups with extends, and applies the default budget', () => {
    const config = resolveConfig({ budget: 5000, modes: { secdev: { extends: 'security_review', groups: ['ci'] } } });
    expect(config.modes.secdev).toMatchObject({ groups: ['security', 'code', 'context', 'local_code', 'access', 'ci'], readOnly: true, budget: 4000, fit: true });
    expect(config.modes.all!.budget).toBe(5000);
  });

  it('keeps a preset\'s room to grow on large catalogs only with the preset\'s budget', () => {
    const preset = resolveConfig({}).modes.security_review!;
    expect(preset.maxBudget).toBeGreaterThan(preset.budget ?? Infinity);
    // A budget the user sets is the user's: no growth unless the rc says how much.
    expect(resolveConfig({ modes: { security_review: { budget: 3000 } } }).modes.security_review).toMatchObject({ budget: 3000, maxBudget: undefined });
    expect(resolveConfig({ modes: { security_review: { budget: 3000, maxBudget: 4500 } } }).modes.security_review).toMatchObject({ budget: 3000, maxBudget: 4500 });
    expect(resolveConfig({ modes: { security_review: { description: 'Audit' } } }).modes.security_review?.maxBudget).toBe(preset.maxBudget);
    // extends inherits the parent's budget and its growth; its own budget takes neither.
    expect(resolveConfig({ modes: { sec2: { extends: 'security_review' } } }).modes.sec2).toMatchObject({ budget: preset.budget, maxBudget: preset.maxBudget });
    expect(resolveConfig({ modes: { sec2: { extends: 'security_review', budget: 2000 } } }).modes.sec2).toMatchObject({ budget: 2000, maxBudget: undefined });
  });

  it('ships sixteen preset modes besides all, and development as the default', () => {
    const config = resolveConfig({});
    expect(Object.keys(config.modes).sort()).toEqual([
      'all', 'analytics', 'browser_testing', 'code_review', 'communications', 'content', 'customer_support', 'daily_checkin', 'debugging', 'development',
      'infrastructure', 'operations', 'research', 'sales', 'security_review', 'sprint_planning', 'task_management',
    ]);
    expect(config.defaultMode).toBe('development');
    expect(config.strategy).toBe('auto');
  });
});

describe('closest names', async () => {
  const { closestNames } = await import('../../src/util/closest.js');
  it('suggests typos, prefixes and misspelled starts', () => {
    expect(closestNames('securty', ['security_review', 'debugging'])).toEqual(['security_review']);
    expect(closestNames('debuging', ['security_review', 'debugging'])).toEqual(['debugging']);
    expect(closestNames('dev', ['development', 'debugging'])).toEqual(['development']);
    expect(closestNames('zzzz', ['development', 'debugging'])).toEqual([]);
  });
});
