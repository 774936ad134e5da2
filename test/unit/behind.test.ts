import { describe, expect, it } from 'vitest';
import { HeldUpdates, MAX_HELD_UPDATES, whenBehind } from '../../src/transports/behind.js';

/** One rule for a client that is behind, on the stdio and HTTP fronts (transports/behind.ts). */
describe('whenBehind', () => {
  it('sends answers, requests and list changes; holds resource updates; drops the other notifications', () => {
    expect(whenBehind({ jsonrpc: '2.0', id: 1, result: {} })).toBe('send');
    expect(whenBehind({ jsonrpc: '2.0', id: 2, method: 'sampling/createMessage', params: {} })).toBe('send');
    for (const kind of ['tools', 'prompts', 'resources']) expect(whenBehind({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` })).toBe('send');
    expect(whenBehind({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///a' } })).toBe('hold');
    for (const method of ['notifications/message', 'notifications/progress']) expect(whenBehind({ jsonrpc: '2.0', method, params: {} })).toBe('drop');
  });
});

describe('HeldUpdates', () => {
  const update = (uri: unknown, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0' as const, method: 'notifications/resources/updated', params: { uri, ...extra } });

  it('keeps one update per URI, as its URI alone, in the order last held; take empties it', () => {
    const held = new HeldUpdates();
    expect(held.hold(update('file:///a', { title: 'x'.repeat(100_000) }))).toBe(true);
    expect(held.hold(update('file:///b'))).toBe(true);
    expect(held.hold(update('file:///a'))).toBe(true);
    expect(held.hold(update(42))).toBe(false);
    expect(held.take()).toEqual([update('file:///b'), update('file:///a')]);
    expect(held.size).toBe(0);
  });

  it('holds at most MAX_HELD_UPDATES URIs, and still the ones it holds', () => {
    const held = new HeldUpdates();
    for (let i = 0; i < MAX_HELD_UPDATES; i++) expect(held.hold(update(`file:///${i}`))).toBe(true);
    expect(held.hold(update('file:///one-more'))).toBe(false);
    expect(held.hold(update('file:///0'))).toBe(true);
    expect(held.size).toBe(MAX_HELD_UPDATES);
  });
});
