import { afterEach, describe, expect, it, vi } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { SearchIndex } from '../../src/search/engine.js';
import { MAX_SEARCHES, MAX_SEARCHES_PER_HOLDER, SearchCancelled, SearchSlots, searchSlots } from '../../src/search/passes.js';
import type { RcConfig } from '../../src/config/schema.js';
import { cleanupAfterEach, EventCounter, inMemoryClient, tempTree, text } from '../harness/index.js';
import { TOY_EMBEDDINGS_KEY, toyEmbeddings } from '../harness/embeddings.js';

/**
 * Interleaved searches hold their memo until they answer (search/memo.ts), and every request a
 * client sends can be in flight at once: the process runs at most MAX_SEARCHES of them, one holder
 * at most MAX_SEARCHES_PER_HOLDER, the rest wait for a slot, granted in turn among the holders
 * waiting, and a cancelled wait takes none.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

describe('search slots', () => {
  it('runs at most `most` at once, and grants the freed slots in turn among holders', async () => {
    const slots = new SearchSlots(2);
    const [a, b] = [{}, {}];
    const order: string[] = [];
    const first = await slots.acquire(a);
    const second = await slots.acquire(a);
    expect(slots.active).toBe(2);
    const a3 = slots.acquire(a).then((release) => (order.push('a3'), release));
    const a4 = slots.acquire(a).then((release) => (order.push('a4'), release));
    const b1 = slots.acquire(b).then((release) => (order.push('b1'), release));
    first();
    first(); // a second call of one release frees nothing more
    await a3;
    expect(slots.active).toBe(2);
    second();
    await b1;
    expect(order, 'b waits behind one of a, not all of them').toEqual(['a3', 'b1']);
    (await a3)();
    (await b1)();
    (await a4)();
    expect(order).toEqual(['a3', 'b1', 'a4']);
    expect(slots.active).toBe(0);
  });

  it("runs at most `perHolder` of one holder's searches: another holder takes a free slot at once, not after the first's queue", async () => {
    const slots = new SearchSlots(8, 2);
    const [a, b] = [{}, {}];
    const order: string[] = [];
    const mine = Array.from({ length: 5 }, (_, i) => slots.acquire(a).then((release) => (order.push(`a${i}`), release)));
    await Promise.resolve();
    const other = await slots.acquire(b);
    order.push('b');
    expect(slots.active, "a's two and b's one").toBe(3);
    expect(order).toEqual(['a0', 'a1', 'b']);
    (await mine[0])?.();
    await mine[2];
    expect(slots.active).toBe(3);
    expect(order.slice(3), "a's next, once one of its own ended").toEqual(['a2']);
    other();
    (await mine[1])?.();
    await mine[3];
    (await mine[2])?.();
    (await mine[3])?.();
    (await mine[4])?.();
    expect(order).toEqual(['a0', 'a1', 'b', 'a2', 'a3', 'a4']);
    expect(slots.active).toBe(0);
  });

  it("runs at most half the slots for one party (a bearer token's sessions): another party's search starts at once, and cancelled waits leave nothing queued", async () => {
    const slots = new SearchSlots(8, 2);
    const sessions = Array.from({ length: 6 }, () => ({}));
    const controller = new AbortController();
    const flood = sessions.flatMap((session) => [slots.acquire(session, controller.signal, 'token a'), slots.acquire(session, controller.signal, 'token a')]);
    await Promise.resolve();
    expect(slots.active, "one token's six sessions run four searches, not eight").toBe(4);
    const other = await slots.acquire({}, undefined, 'token b');
    expect(slots.active).toBe(5);
    expect(slots.waitingCount).toBe(8);
    controller.abort();
    const outcomes = await Promise.allSettled(flood);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(8);
    expect(slots.waitingCount).toBe(0);
    for (const outcome of outcomes) if (outcome.status === 'fulfilled') outcome.value();
    other();
    expect(slots.active).toBe(0);
    (await slots.acquire({}, undefined, 'token a'))();
  });

  it('leaves the queue when its request is cancelled while waiting, taking no slot', async () => {
    const slots = new SearchSlots(1);
    const held = await slots.acquire({});
    const controller = new AbortController();
    const waiting = slots.acquire({}, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(SearchCancelled);
    await expect(slots.acquire({}, controller.signal)).rejects.toBeInstanceOf(SearchCancelled);
    held();
    expect(slots.active).toBe(0);
    (await slots.acquire({}))();
  });

  it("bounds a gateway's searches in flight: a client's forty search_tools calls at once run at most MAX_SEARCHES_PER_HOLDER together", async () => {
    const tools = Array.from({ length: 300 }, (_, i) => ({ name: `tool_${i}`, description: `Reads and writes record ${i} of the ledger, its invoices and its reports`, inputSchema: { type: 'object' as const } }));
    const gateway = new Gateway({ config: resolveConfig({ strategy: 'proxy' }), upstreams: [], locked: [{ server: 'ledger', tools }] });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'search-slots-test' });
    const original = SearchIndex.prototype.rankMany;
    let live = 0;
    let peak = 0;
    vi.spyOn(SearchIndex.prototype, 'rankMany').mockImplementation(function* (this: SearchIndex, ...args: Parameters<SearchIndex['rankMany']>) {
      peak = Math.max(peak, ++live);
      try {
        return yield* original.apply(this, args);
      } finally {
        live--;
      }
    });
    const queries = ['read the ledger record, then write the invoice, then list the reports', 'invoices of the ledger', 'the reports'];
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => client.callTool({ name: 'search_tools', arguments: { query: `record ${i}`, queries, limit: 3 } })));
    for (const answer of answers) expect(text(answer as never)).toContain('tool_');
    expect(peak, 'searches in flight at once').toBeLessThanOrEqual(MAX_SEARCHES_PER_HOLDER);
    expect(MAX_SEARCHES_PER_HOLDER).toBeLessThan(MAX_SEARCHES);
    expect(peak).toBeGreaterThan(1);
    await client.close();
    await gateway.close();
  });

  it("reads the mode's rules once it has a slot: a switch to a read-only mode while it waited offers no writer", async () => {
    const note = (name: string, readOnlyHint: boolean) => ({ name, description: `${name.replace('_', 's ')} in the notebook`, inputSchema: { type: 'object' as const }, annotations: { readOnlyHint } });
    const config = resolveConfig({ groups: { notes: { servers: ['notes'] } }, modes: { edit: { groups: ['notes'] }, look: { groups: ['notes'], readOnly: true } }, defaultMode: 'edit', strategy: 'proxy' });
    const gateway = new Gateway({ config, upstreams: [], locked: [{ server: 'notes', tools: [note('read_note', true), note('erase_note', false)] }] });
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'search-slots-test' });
    const held = await Promise.all(Array.from({ length: MAX_SEARCHES }, () => searchSlots.acquire({})));
    const searching = client.callTool({ name: 'search_tools', arguments: { query: 'erase the note' } });
    const switched = await client.callTool({ name: 'focus_mode', arguments: { mode: 'look' } });
    expect(text(switched as never)).toContain('look');
    for (const release of held) release();
    const answer = text((await searching) as never);
    expect(answer, 'the writer of a mode the session left while its search waited').not.toContain('"name":"erase_note"');
    expect(answer).toContain('"name":"read_note"');
    await client.close();
    await gateway.close();
  });
});

describe('search slots by bearer token', () => {
  it("takes turns by bearer token: one token's many sessions do not keep another token's search waiting behind all of theirs", async () => {
    const tools = Array.from({ length: 50 }, (_, i) => ({ name: `tool_${i}`, description: `Reads record ${i} of the ledger`, inputSchema: { type: 'object' as const } }));
    const config = resolveConfig({ groups: { ledger: { servers: ['ledger'] } }, modes: { books: { groups: ['ledger'] } }, defaultMode: 'books', strategy: 'proxy' });
    const gateway = new Gateway({ config, upstreams: [], locked: [{ server: 'ledger', tools }] });
    const token = (label: string) => ({ boundary: { modes: ['books'], token: true, label } });
    const sessions = 20;
    const flood = await Promise.all(Array.from({ length: sessions }, () => inMemoryClient((t) => gateway.createSession(token('flood')).connect(t), { name: 'search-slots-test' })));
    const other = await inMemoryClient((t) => gateway.createSession(token('other')).connect(t), { name: 'search-slots-test' });
    const original = SearchIndex.prototype.rankMany;
    const started: string[] = [];
    vi.spyOn(SearchIndex.prototype, 'rankMany').mockImplementation(function* (this: SearchIndex, ...args: Parameters<SearchIndex['rankMany']>) {
      started.push(args[0].join(' ').includes('other') ? 'other' : 'flood');
      return yield* original.apply(this, args);
    });
    // Every slot taken, so each search below waits its turn.
    const held = await Promise.all(Array.from({ length: MAX_SEARCHES }, () => searchSlots.acquire({})));
    const calls = flood.map((client, i) => client.callTool({ name: 'search_tools', arguments: { query: `ledger record ${i}` } }));
    // Each flood search is queued before the other token's one is sent.
    while (searchSlots.waitingCount < sessions) await new Promise((resolve) => setImmediate(resolve));
    calls.push(other.callTool({ name: 'search_tools', arguments: { query: 'other ledger record' } }));
    while (searchSlots.waitingCount < sessions + 1) await new Promise((resolve) => setImmediate(resolve));
    for (const release of held) release();
    await Promise.all(calls);
    expect(started.indexOf('other'), `the other token's search started after ${started.indexOf('other')} of the flooding token's ${sessions}`).toBeLessThanOrEqual(1);
    for (const client of [...flood, other]) await client.close();
    await gateway.close();
  });
});

describe('search slots and an embeddings endpoint', () => {
  const cleanups = cleanupAfterEach();

  it("asks the endpoint for a search's query vectors in turns of their own: one client's forty calls at once keep at most MAX_SEARCHES_PER_HOLDER requests there, the rest answer by words", async () => {
    const toy = await toyEmbeddings();
    cleanups.push(() => toy.close());
    const tools = Array.from({ length: 30 }, (_, i) => ({ name: `tool_${i}`, description: `Reads record ${i} of the ledger`, inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } }));
    const embeddings = { url: toy.url, model: 'toy', apiKey: '${TOY_KEY}', timeoutMs: 60_000 };
    const config = resolveConfig({ strategy: 'proxy', discovery: { embeddings } } as RcConfig);
    const gateway = new Gateway({ config, upstreams: [], locked: [{ server: 'ledger', tools }], env: { TOY_KEY: TOY_EMBEDDINGS_KEY, LAZYTOOLS_CACHE_DIR: tempTree({}) } });
    cleanups.push(() => gateway.close());
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'search-slots-test', cleanups });
    // The tool vectors are filled first; then the endpoint stops answering.
    expect((await gateway.embeddings?.warm())?.embedded).toBe(30);
    toy.mode = 'hang';
    const before = toy.requests.count;
    const answered = new EventCounter();
    const calls = Array.from({ length: 40 }, (_, i) => client.callTool({ name: 'search_tools', arguments: { query: `ledger record ${i}` } }).finally(answered.hit));
    // Every call beyond the holder's turns answers by words while its two requests stall.
    await answered.reached(40 - MAX_SEARCHES_PER_HOLDER);
    expect(toy.requests.count - before, "query embeddings in flight at the endpoint for one client's forty searches").toBe(MAX_SEARCHES_PER_HOLDER);
    expect(answered.count, 'the two waiting on the endpoint').toBe(40 - MAX_SEARCHES_PER_HOLDER);
    // Down: each search answers by words alone.
    await toy.close();
    for (const answer of await Promise.all(calls)) expect(text(answer as never)).toContain('tool_');
  });
});
