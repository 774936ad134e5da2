import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig, type EmbeddingsSettings } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { answerBound, EmbeddingsClient } from '../../src/search/embeddings.js';
import type { Logger } from '../../src/util/log.js';
import { cleanupAfterEach, inMemoryClient, tempTree, text } from '../harness/index.js';
import { TOY_EMBEDDINGS_KEY as KEY, toyEmbeddings, type ToyEmbeddings } from '../harness/embeddings.js';

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } });
const SOURCES = [{ server: 'shop', tools: [tool('frobnicate_widgets', 'Frobnicates the widgets of a project'), tool('list_widgets', 'List the widgets of a project')] }];

/**
 * What an embeddings endpoint's answer may take is bounded by the vectors asked for, as it is read:
 * an answer to one text was read up to 32 MiB and a million JSON values, and then parsed, whatever
 * it was (fails on the old main: an endless answer was read past 32 MiB; 300,000 empty vectors for
 * one text were parsed and refused only for their count).
 */
describe('embeddings answers, bounded by what was asked', () => {
  const cleanups = cleanupAfterEach();
  let toy: ToyEmbeddings;
  const env = { TOY_KEY: KEY, LAZYTOOLS_CACHE_DIR: tempTree({}) };
  beforeAll(async () => (toy = await toyEmbeddings()));
  afterAll(() => toy.close());

  it('stops reading an answer that never ends at the bound for the texts asked, and hangs up', async () => {
    toy.mode = 'endless';
    try {
      const client = new EmbeddingsClient({ url: toy.url, model: 'toy', apiKey: '${TOY_KEY}' } as EmbeddingsSettings, env);
      const failure = await client.embed(['frobnicate widgets'], 20_000).then(() => 'answered', (error: Error) => error.message);
      expect(failure).toBe(`the answer is over ${answerBound(1).bytes.toLocaleString('en-US')} bytes (1 vector of at most 8,192 numbers take fewer)`);
      await toy.hungUp.reached(1);
      // What the endpoint wrote before the hang-up: the bound (about 300 kB) and what the sockets buffer.
      expect(toy.streamed[0], 'bytes written before the reader hung up').toBeLessThan(16 * 1024 * 1024);
    } finally {
      toy.mode = 'ok';
    }
  });

  // adv31: a body that stopped after its headers failed with the fetch's own abort ("The operation
  // was aborted due to timeout"), not the EmbeddingsError embed() promises; its warning read so.
  it('says an answer that stopped coming ran out of time, as one that never began does', async () => {
    toy.mode = 'stall-body';
    // Garbage collection while the body waits, as a busy process has: AbortSignal.timeout's signal,
    // held by nothing once the headers came, went with its timer, and the read waited for ever
    // (this test hung to its 30 s timeout in a whole unit run; with collections it always did).
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const collecting = setInterval(collect, 20);
    try {
      const client = new EmbeddingsClient({ url: toy.url, model: 'toy', apiKey: '${TOY_KEY}' } as EmbeddingsSettings, env);
      const failure = await client.embed(['frobnicate widgets'], 300).then(() => 'answered', (error: Error) => error.message);
      expect(failure).toBe('no whole answer within 300 ms');
    } finally {
      clearInterval(collecting);
      toy.mode = 'ok';
    }
  });

  it('refuses 300,000 vectors for the texts of a fill as they arrive, naming the endpoint without its key: search answers by words', async () => {
    toy.mode = 'tiny-values';
    try {
      const warnings: string[] = [];
      const logger: Logger = { info: () => {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };
      const config = resolveConfig({ discovery: { embeddings: { url: toy.url, model: 'toy', apiKey: '${TOY_KEY}', weight: 0.5 } } } as RcConfig);
      const gateway = new Gateway({ config, upstreams: [], locked: SOURCES, logger, env: { ...env, LAZYTOOLS_CACHE_DIR: tempTree({}) } });
      cleanups.push(() => gateway.close());
      expect(await gateway.embeddings?.warm()).toMatchObject({ embedded: 0 });
      const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'embeddings-answers', cleanups });
      const answer = text(await client.callTool({ name: 'search_tools', arguments: { query: 'list widgets', detail: 'name', limit: 3 } }));
      expect(JSON.parse(answer.split('\n')[0] ?? '[]')[0]).toMatchObject({ name: 'list_widgets' });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`${new URL(toy.url).host}/v1/embeddings: the answer holds more than ${answerBound(2).values.toLocaleString('en-US')} JSON values (2 vectors of at most 8,192 numbers hold fewer)`);
      expect(warnings[0]).not.toContain(KEY);
    } finally {
      toy.mode = 'ok';
    }
  });
});
