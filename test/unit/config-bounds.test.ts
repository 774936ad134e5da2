import { describe, expect, it } from 'vitest';
import { interpolate } from '../../src/config/env.js';
import { loadConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/util/errors.js';
import { tempTree } from '../harness/index.js';

/** Bounds and lookups in config loading: a YAML anchor bomb, inherited names. */

function anchorBomb(levels: number): string {
  const lines = ['tools:', '  "memory:read_graph":', '    examples:', '      - a: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]'];
  for (let i = 1; i < levels; i++) lines.push(`        b${i}: &l${i} [${Array.from({ length: 9 }, () => `*l${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

describe('tools.<id>.examples is bounded', () => {
  it('a YAML anchor bomb is a config error naming the key, not a 10 s describe_tools', async () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.yaml': anchorBomb(9) });
    const error = await loadConfig({ cwd: dir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('tools["memory:read_graph"].examples');
    expect((error as Error).message).toContain('at most 10000 values');
  });

  it('ordinary examples still load', async () => {
    const dir = tempTree({ 'package.json': '{}', '.lazytoolsrc.yaml': 'tools:\n  "memory:read_graph":\n    examples:\n      - {}\n      - query: x\n' });
    const { config } = await loadConfig({ cwd: dir });
    expect(config.tools?.['memory:read_graph']?.examples).toEqual([{}, { query: 'x' }]);
  });
});

describe('${VAR} reads only real environment variables', () => {
  it('${toString} is an unset variable, not Object.prototype.toString', () => {
    expect(() => interpolate('${toString}', {}, 'servers.x.env.A')).toThrow(/environment variable toString is not set/);
    expect(() => interpolate('${constructor}', {}, 'servers.x.env.A')).toThrow(ConfigError);
  });
});
