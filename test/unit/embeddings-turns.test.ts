import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { READY_WAIT_MS } from '../../src/search/embedding-search.js';
import { MAX_SEARCHES } from '../../src/search/passes.js';
import type { Logger } from '../../src/util/log.js';
import { cleanupAfterEach, inMemoryClient, tempTree, text } from '../harness/index.js';
import { TOY_EMBEDDINGS_KEY as KEY, toyEmbeddings, type ToyEmbeddings } from '../harness/embeddings.js';

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } });
const SOURCES = [{ server: 'shop', tools: [tool('frobnicate_widgets', 'Frobnicates the widgets of a project'), tool('list_widgets', 'List the widgets of a project'), tool('list_projects', 'List projects')] }];

/**
 * A stalled embeddings endpoint (rc discovery.embeddings) and the search slots (search/passes.ts):
 * each search_tools call awaited the endpoint for its query vectors inside its slot, so searches
 * stalled there held all eight slots for timeoutMs, and another client's search waited behind
 * them (fails on the old main: the fifth client's search never answered within the test's
 * timeout, timeoutMs being a minute). Now the endpoint is asked before the slot, in turns of its
 * own, and a search that gets no turn within READY_WAIT_MS answers by words alone.
 */
describe('a stalled embeddings endpoint', () => {
  const cleanups = cleanupAfterEach();
  let toy: ToyEmbeddings;
  beforeAll(async () => (toy = await toyEmbeddings()));
  afterAll(() => toy.close());

  it('holds no search slot: another client\'s search answers by words while eight searches wait on it', async () => {
    const warnings: string[] = [];
    const logger: Logger = { info: () => {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };
    const config = resolveConfig({ discovery: { embeddings: { url: toy.url, model: 'toy', apiKey: '${TOY_KEY}', weight: 0.5, timeoutMs: 60_000 } } } as RcConfig);
    const gateway = new Gateway({ config, upstreams: [], locked: SOURCES, logger, env: { TOY_KEY: KEY, LAZYTOOLS_CACHE_DIR: tempTree({}) } });
    cleanups.push(() => gateway.close());
    const session = (name: string) => inMemoryClient((t) => gateway.createSession().connect(t), { name, cleanups });
    const search = async (client: Awaited<ReturnType<typeof session>>, query: string) => text(await client.callTool({ name: 'search_tools', arguments: { query, detail: 'name', limit: 3 } }));
    // The tool vectors first: the stall is the queries' own.
    const report = await gateway.embeddings?.warm();
    expect(report?.embedded).toBe(3);
    const first = await session('first');
    expect(JSON.parse((await search(first, 'zorbify')).split('\n')[0] ?? '[]')[0], 'meaning while the endpoint answers').toMatchObject({ name: 'frobnicate_widgets' });

    toy.mode = 'hang';
    const asked = toy.requests.count;
    // Four clients, two searches each: as many as there are search slots (two per client).
    const clients = await Promise.all([1, 2, 3, 4].map((i) => session(`stalled-${i}`)));
    let settled = 0;
    const stalled = clients.flatMap((client, i) => [0, 1].map((k) => search(client, `list widgets ${i} ${k}`).finally(() => settled++)));
    expect(stalled).toHaveLength(MAX_SEARCHES);
    await toy.requests.reached(asked + MAX_SEARCHES);

    const answer = await search(await session('other'), 'list widgets');
    expect(JSON.parse(answer.split('\n')[0] ?? '[]')[0]).toMatchObject({ name: 'list_widgets' });
    expect(settled, 'the stalled searches still wait on the endpoint').toBe(0);
    expect(warnings.join('\n')).toContain(`took every turn for over ${READY_WAIT_MS} ms; searches use words only`);
    expect(warnings.join('\n')).not.toContain(KEY);

    // The endpoint goes away: the stalled searches answer by words.
    await toy.close();
    for (const result of await Promise.all(stalled)) expect(result).toContain('list_widgets');
  });

  it('a search during a fill that stalls answers by words, not after timeoutMs (fails on the old main: it waited the minute)', async () => {
    const stalling = await toyEmbeddings();
    cleanups.push(() => stalling.close());
    stalling.mode = 'hang';
    const config = resolveConfig({ discovery: { embeddings: { url: stalling.url, model: 'toy', apiKey: '${TOY_KEY}', weight: 0.5, timeoutMs: 60_000 } } } as RcConfig);
    const gateway = new Gateway({ config, upstreams: [], locked: SOURCES, env: { TOY_KEY: KEY, LAZYTOOLS_CACHE_DIR: tempTree({}) } });
    cleanups.push(() => gateway.close());
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'during-fill', cleanups });
    for (let i = 0; i < 2; i++) {
      const answer = text(await client.callTool({ name: 'search_tools', arguments: { query: 'list widgets', detail: 'name', limit: 3 } }));
      expect(JSON.parse(answer.split('\n')[0] ?? '[]')[0]).toMatchObject({ name: 'list_widgets' });
    }
    expect(stalling.requests.count, 'one fill request, still in flight').toBe(1);
  });
});
