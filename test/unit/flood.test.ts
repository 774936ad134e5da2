import { describe, expect, it } from 'vitest';
import { FloodGate, paced } from '../../src/upstream/flood.js';

describe('FloodGate (one upstream\'s notifications)', () => {
  it('coalesces a list change already due: in one read burst, and while a re-list is queued', async () => {
    let queued = false;
    const gate = new FloodGate(() => queued, 1_000, 1_000);
    const judge = (method: string) => gate.judge(method, false, 0, () => {});
    expect(judge('notifications/tools/list_changed')).toBe('pass');
    expect(judge('notifications/tools/list_changed')).toBe('coalesced');
    expect(judge('notifications/prompts/list_changed')).toBe('pass');
    // The burst ends with the synchronous pass (the SDK's handlers run after it).
    await Promise.resolve();
    expect(judge('notifications/tools/list_changed')).toBe('pass');
    await Promise.resolve();
    queued = true;
    expect(judge('notifications/tools/list_changed')).toBe('coalesced');
  });

  it('past the budget: drops the excess of a transport that cannot be held (list changes excepted) and reports it once the window ends', () => {
    const reports: number[] = [];
    const gate = new FloodGate(() => false, 3, 100);
    const judge = (method: string, now: number, canHold = false) => gate.judge(method, canHold, now, (dropped) => reports.push(dropped));
    expect(['a', 'b', 'c'].map((_, i) => judge('notifications/message', i))).toEqual(['pass', 'pass', 'pass']);
    expect(gate.spent).toBe(false);
    expect(judge('notifications/message', 4)).toBe('drop');
    expect(gate.spent).toBe(true);
    expect(gate.holdMs(50)).toBe(50);
    expect(judge('notifications/message', 5, true)).toBe('pass');
    expect(judge('notifications/resources/list_changed', 6)).toBe('pass');
    expect(reports).toEqual([]);
    expect(judge('notifications/message', 100)).toBe('pass');
    expect(reports).toEqual([1]);
    expect(gate.spent).toBe(false);
  });

  it('paces: at once when the gap has passed, later otherwise', async () => {
    let done = false;
    await paced(-Infinity);
    const later = paced(performance.now(), 30).then(() => (done = true));
    expect(done).toBe(false);
    await later;
    expect(done).toBe(true);
  });
});
