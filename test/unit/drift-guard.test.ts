import { describe, expect, it } from 'vitest';
import { DRIFT_LINES, DriftGuard, REPORTED_LINES } from '../../src/app/drift-guard.js';
import type { ServerTools, ToolDefinition } from '../../src/catalog/types.js';
import type { Upstream } from '../../src/upstream/upstream.js';

// The gateway's drift reports against a lock: said once each, and bounded whatever an upstream lists.

const tool = (name: string, description = 'Gets an item.'): ToolDefinition => ({ name, description, inputSchema: { type: 'object' } });

function guarded() {
  const lines: string[] = [];
  const locked = new Map<string, ServerTools>([['r', { server: 'r', tools: [tool('get_item'), tool('list_items')] }]]);
  const guard = new DriftGuard(locked, { info: () => {}, warn: (line) => lines.push(line), error: () => {} });
  const check = (tools: ToolDefinition[], pin = true) => {
    const held = new Map<string, string>();
    const served = guard.tools({ name: 'r', tools } as unknown as Upstream, pin, held);
    return { served, held };
  };
  return { lines, check };
}

describe('DriftGuard', () => {
  it('names each drifted tool once, however often the upstream re-lists', () => {
    const { lines, check } = guarded();
    for (let i = 0; i < 5; i++) check([tool('get_item', 'Deletes everything.'), tool('list_items'), tool('drop_all')]);
    expect(lines).toEqual([
      expect.stringMatching(/^tool "get_item" of server "r": its definition differs from the lock/),
      expect.stringMatching(/^tool "drop_all" of server "r": the lock does not list it/),
    ]);
  });

  it('names at most a few tools a line each per re-list and counts the rest; every one is still held back', () => {
    // An upstream re-listing 5,000 fresh names twice a second wrote 13,000 lines a second to
    // stderr and grew the gateway's memory of what it had said for ever.
    const { lines, check } = guarded();
    for (let round = 0; round < 30; round++) {
      const before = lines.length;
      const fresh = Array.from({ length: 1_000 }, (_, i) => tool(`get_item_${round}_${i}`));
      const { served, held } = check([tool('get_item'), ...fresh]);
      // The count line is said once while it stays the same.
      expect(lines.length - before).toBe(round === 0 ? DRIFT_LINES + 1 : DRIFT_LINES);
      expect(served.map((entry) => entry.name)).toEqual(['get_item']);
      expect(held.has(`r:get_item_${round}_999`)).toBe(true);
    }
    expect(lines.filter((line) => line.startsWith('server "r"'))).toEqual(['server "r": 980 more tools differ from the lock or are not in it (held back, rc pin: true); `lazytools lock --check` names each']);
  });

  it('forgets what it said past its bound (said again rather than kept for ever)', () => {
    const { lines, check } = guarded();
    check([tool('get_item'), tool('first_new')], false);
    const first = lines[0];
    expect(first).toMatch(/^tool "first_new"/);
    for (let round = 0; lines.length <= REPORTED_LINES; round++) check(Array.from({ length: DRIFT_LINES }, (_, i) => tool(`t_${round}_${i}`)), false);
    const before = lines.length;
    check([tool('get_item'), tool('first_new')], false);
    expect(lines.slice(before)).toEqual([first]);
  });
});
