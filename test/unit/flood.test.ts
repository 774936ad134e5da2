import { describe, expect, it } from 'vitest';
import { boundedFetch } from '../../src/upstream/bounded-fetch.js';
import { FloodGate, paced, ReadHold, RELIST_GAP_MS, RELIST_MAX_GAP_MS, RELIST_SPACING, relistGap, REQUEST_BUDGET } from '../../src/upstream/flood.js';

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

  it('counts coalesced list changes against the budget: a server pouring them is held, though none is lost', () => {
    const gate = new FloodGate(() => true, 3, 100);
    const verdicts = Array.from({ length: 5 }, (_, i) => gate.judge('notifications/tools/list_changed', false, i, () => {}));
    // A re-list is queued: every one of them is already due, so each is coalesced, never dropped.
    expect(verdicts).toEqual(['coalesced', 'coalesced', 'coalesced', 'coalesced', 'coalesced']);
    expect(gate.spent).toBe(true);
    expect(gate.holdMs(5)).toBe(95);
  });

  it(`answers at most ${REQUEST_BUDGET} of an upstream's requests a window: over HTTP each answer is a POST (1,000 a second took the gateway)`, () => {
    const reports: number[] = [];
    const gate = new FloodGate(() => false);
    const judge = (method: string, now: number, canHold = false) => gate.judge(method, canHold, now, (dropped) => reports.push(dropped));
    const asked = ['ping', 'roots/list', 'sampling/createMessage', 'elicitation/create', 'anything/else'];
    const verdicts = Array.from({ length: REQUEST_BUDGET + 50 }, (_, i) => judge(asked[i % asked.length]!, 1));
    expect(verdicts.filter((verdict) => verdict === 'pass')).toHaveLength(REQUEST_BUDGET);
    expect(gate.spent).toBe(true);
    // Notifications and stray answers still have their own (larger) budget; list changes pass.
    expect(judge('notifications/message', 2)).toBe('pass');
    expect(judge('response', 2)).toBe('pass');
    expect(judge('notifications/tools/list_changed', 2)).toBe('pass');
    // A stdio upstream is held instead: what it sent passes.
    expect(judge('ping', 3, true)).toBe('pass');
    expect(judge('ping', 1_001)).toBe('pass');
    expect(reports).toEqual([50]);
  });

  it('ReadHold: a held SSE stream is not read on until the hold ends (backpressure reaches the server)', async () => {
    const hold = new ReadHold();
    let pulled = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode(`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"n":${pulled}}}\n\n`));
      },
    }, { highWaterMark: 0 });
    const base = async () => new Response(source, { headers: { 'content-type': 'text/event-stream' } });
    const response = await boundedFetch('flood', base, 1024 * 1024, hold)('http://127.0.0.1/mcp', { method: 'GET' });
    const reader = response.body!.getReader();
    await reader.read();
    expect(hold.paused()).toBeUndefined();
    hold.holdReading(150);
    const before = pulled;
    const started = performance.now();
    await reader.read();
    await reader.read();
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    // While held the source was asked for at most the chunks the pipe's queues hold.
    expect(pulled - before).toBeLessThanOrEqual(4);
    await reader.cancel();
  });

  it('relistGap: RELIST_SPACING x what the last re-list held the event loop, within RELIST_GAP_MS and RELIST_MAX_GAP_MS', () => {
    // A small list (an honest server's) keeps the least gap: its change is re-listed as before.
    expect(relistGap(0)).toBe(RELIST_GAP_MS);
    expect(relistGap(3)).toBe(RELIST_GAP_MS);
    expect(relistGap(Number.NaN)).toBe(RELIST_GAP_MS);
    // A 48 MiB page held the loop ~2 s: the next re-list waits ten times that, so the gateway stays ~90% idle.
    expect(relistGap(2_000)).toBe(2_000 * RELIST_SPACING);
    expect(relistGap(2_000) / (relistGap(2_000) + 2_000)).toBeGreaterThan(0.9);
    expect(relistGap(Infinity)).toBe(RELIST_MAX_GAP_MS);
    expect(relistGap(-5)).toBe(RELIST_GAP_MS);
    expect(relistGap(1e9)).toBe(RELIST_MAX_GAP_MS);
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
