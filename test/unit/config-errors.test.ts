import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { ConfigError } from '../../src/util/errors.js';

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

  it('points a pasted client config (mcpServers) at lazytools init --from', () => {
    expect(error({ mcpServers: { a: { command: 'x' } } })).toContain('Unrecognized key: "mcpServers": this is a client\'s MCP config, not a lazytools rc; import its servers with `lazytools init --from /repo/.lazytoolsrc.json`');
  });

  it('says nothing it cannot back: a key far from every known one gets no suggestion', () => {
    expect(error({ policy: { zzzzzzzzzzzz: 1 } })).toMatch(/Unrecognized key: "zzzzzzzzzzzz"\.\n/);
  });
});
