import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { Gateway } from '../../src/app/gateway.js';
import { answerBound, EmbeddingsClient } from '../../src/search/embeddings.js';
import { CACHE_BYTES, cacheEntries, cacheEntryBytes, ToolVectors } from '../../src/search/tool-vectors.js';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { denseFor } from '../../src/cli/embeddings.js';
import type { EmbeddingsSettings } from '../../src/config/resolve.js';
import type { Logger } from '../../src/util/log.js';
import { inMemoryClient, tempTree, text } from '../harness/index.js';
import { TOY_EMBEDDINGS_KEY as KEY, toyEmbeddings, type ToyEmbeddings } from '../harness/embeddings.js';

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } });
const SOURCES = [
  { server: 'shop', tools: [tool('frobnicate_widgets', 'Frobnicates the widgets of a project'), tool('list_widgets', 'List the widgets of a project'), tool('list_projects', 'List projects')] },
  { server: 'mail', tools: [tool('send_email', 'Send an email'), tool('list_emails', 'List emails')] },
];

/** rc `discovery.embeddings` against a toy endpoint on 127.0.0.1 (test/harness/embeddings.ts). */
describe('search with an embeddings endpoint (rc discovery.embeddings)', () => {
  let toy: ToyEmbeddings;
  const cache = tempTree({});
  const env = { TOY_KEY: KEY, LAZYTOOLS_CACHE_DIR: cache };
  beforeAll(async () => (toy = await toyEmbeddings()));
  afterAll(() => toy.close());

  function gateway(embeddings: Record<string, unknown>, warnings: string[] = []) {
    const logger: Logger = { info: () => {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };
    const config = resolveConfig({ discovery: { embeddings: { url: toy.url, model: 'toy', apiKey: '${TOY_KEY}', ...embeddings } } } as RcConfig);
    return new Gateway({ config, upstreams: [], locked: SOURCES, logger, env });
  }
  const search = async (g: Gateway, query: string) => {
    const client = await inMemoryClient((t) => g.createSession().connect(t), { name: 'embeddings-test' });
    return text(await client.callTool({ name: 'search_tools', arguments: { query, detail: 'name', limit: 3 } }));
  };
  // A search waits READY_WAIT_MS at most for the tool vectors: one that needs them waits for the fill first.
  const warmSearch = async (g: Gateway, query: string) => {
    await g.embeddings?.warm();
    return search(g, query);
  };

  it('finds a tool by meaning when no word of the query is in it, sending the key only to the endpoint', async () => {
    const plain = new Gateway({ config: resolveConfig({}), upstreams: [], locked: SOURCES });
    expect(await search(plain, 'zorbify')).toContain('No tools match');
    // timeoutMs (default 1.5 s) is an upper bound: a passing search never waits for it; the fill
    // is awaited first, as a search waits for it only READY_WAIT_MS (here beside other work on a busy machine).
    const answer = await warmSearch(gateway({ weight: 0.5, timeoutMs: 10_000 }), 'zorbify');
    expect(JSON.parse(answer.split('\n')[0] ?? '[]')[0]).toMatchObject({ name: 'frobnicate_widgets' });
    expect(toy.authorizations.every((value) => value === `Bearer ${KEY}`)).toBe(true);
    expect(answer).not.toContain(KEY);
  });

  it('embeds a catalog once: a second gateway reads the tool vectors from the user cache and embeds only its queries', async () => {
    const before = toy.inputs.length;
    await warmSearch(gateway({ weight: 0.5, timeoutMs: 10_000 }), 'zorbify the widgets');
    expect(toy.inputs.slice(before)).toEqual(['zorbify the widgets']);
  });

  it('answers by words alone, with one warning, when the endpoint fails, answers nonsense or is slow', async () => {
    const down = await toyEmbeddings();
    await down.close();
    for (const [setup, url] of [['garbage', toy.url], ['hang', toy.url], ['down', down.url]] as const) {
      toy.mode = setup === 'down' ? 'ok' : setup;
      const warnings: string[] = [];
      const g = gateway({ url, timeoutMs: 300, weight: 0.5 }, warnings);
      // A fresh catalog digest: no cached vectors to fall back on.
      for (let i = 0; i < 2; i++) expect(await search(g, `list widgets ${setup}`), setup).toContain('list_widgets');
      expect(warnings, setup).toHaveLength(1);
      expect(warnings.join('\n')).not.toContain(KEY);
    }
    toy.mode = 'ok';
  });

  it('refuses an answer of more JSON values than the vectors asked for hold, unparsed: search answers by words', async () => {
    toy.mode = 'many-values';
    try {
      const warnings: string[] = [];
      const g = gateway({ timeoutMs: 10_000, weight: 0.5 }, warnings);
      expect(await warmSearch(g, 'list widgets many')).toContain('list_widgets');
      // The fill's 3 texts, or the query's one when the tools' vectors were cached by a test before.
      expect([1, 3].map((n) => `more than ${answerBound(n).values.toLocaleString('en-US')} JSON values (${n} vector${n > 1 ? 's' : ''} of at most 8,192 numbers hold fewer)`).some((line) => warnings.join('\n').includes(line)), warnings.join('\n')).toBe(true);
    } finally {
      toy.mode = 'ok';
    }
  });

  it('keeps a warning within 1,000 characters (and its note) whatever the rc\'s url and model', async () => {
    const down = await toyEmbeddings();
    await down.close();
    const warnings: string[] = [];
    const g = gateway({ url: `${down.url}/${'v'.repeat(100_000)}`, model: 'm'.repeat(100_000), timeoutMs: 300 }, warnings);
    expect(await search(g, 'list widgets long rc')).toContain('list_widgets');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^discovery\.embeddings: http:\/\/127\.0\.0\.1:\d+\/\S*v{900}/);
    expect(warnings[0]?.length).toBeLessThanOrEqual(1_100);
    expect(warnings[0]).toMatch(/\[warning cut by lazytools at 1000 characters\]$/);
  });

  it('keeps `lazytools search`\'s probe warning within 1,000 characters too', async () => {
    const down = await toyEmbeddings();
    await down.close();
    const lines: string[] = [];
    const config = resolveConfig({ discovery: { embeddings: { url: `${down.url}/${'v'.repeat(100_000)}`, model: 'toy', timeoutMs: 300 } } } as RcConfig);
    const { catalog } = buildCatalog(SOURCES, config);
    expect(await denseFor(catalog, config, ['list widgets'], { err: (line) => lines.push(line), env })).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^discovery\.embeddings: http:\/\/127\.0\.0\.1:\d+\/\S*v{900}/);
    expect(lines[0]).toMatch(/\[warning cut by lazytools at 1000 characters\]$/);
  });

  it('normalizes vectors whose numbers overflow float32 (1e39) or whose squares overflow (1e200) to unit vectors', async () => {
    const client = new EmbeddingsClient({ url: toy.url, model: 'toy', apiKey: '${TOY_KEY}' } as EmbeddingsSettings, env);
    const [expected] = await client.embed(['frobnicate widgets'], 5_000);
    for (const scale of [1e39, 1e200]) {
      Object.assign(toy, { mode: 'huge', scale });
      const [vector] = await client.embed(['frobnicate widgets'], 5_000);
      expect([...(vector ?? [])].every(Number.isFinite), String(scale)).toBe(true);
      expect([...(vector ?? [])], String(scale)).toEqual([...(expected ?? [])]);
      expect(await warmSearch(gateway({ timeoutMs: 5_000 }), `zorbify ${scale}`), String(scale)).toContain('frobnicate_widgets');
    }
    toy.mode = 'ok';
  });

  it('quotes an endpoint\'s error without the key, even where the quote is cut inside it', async () => {
    const client = new EmbeddingsClient({ url: toy.url, model: 'toy', apiKey: '${TOY_KEY}' } as EmbeddingsSettings, env);
    toy.mode = 'echo';
    const failure = await client.embed(['frobnicate widgets'], 5_000).then(() => undefined, (error: Error) => error.message);
    toy.mode = 'ok';
    expect(failure).toMatch(/^HTTP 500: x+ /);
    expect(failure).not.toContain(KEY.slice(0, 8));
  });

  it('keeps a cache file within about 40 MB whatever the vectors\' width', () => {
    expect(cacheEntries(512)).toBe(50_000);
    for (const dims of [512, 1_536, 3_072, 8_192]) expect(cacheEntries(dims) * cacheEntryBytes(dims), String(dims)).toBeLessThanOrEqual(CACHE_BYTES);
    expect(cacheEntries(8_192)).toBeGreaterThan(3_000);
  });

  it('sends whole characters only: a text cut at MAX_EMBED_CHARS keeps or drops an emoji across the cut, never half of it', async () => {
    const client = new EmbeddingsClient({ url: toy.url, model: 'toy', apiKey: '${TOY_KEY}' } as EmbeddingsSettings, env);
    // "emoji notes: " is 13 characters: the emoji's two halves fall on both sides of the 2,000th.
    const tools = buildCatalog([{ server: 'notes', tools: [tool('emoji_notes', `${'x'.repeat(1_986)}😀 and more`)] }], resolveConfig({})).catalog.tools;
    const sent = toy.inputs.length;
    expect((await new ToolVectors(tools, client, undefined).fill()).embedded).toBe(1);
    await client.embed([`${'y'.repeat(1_999)}😀 and more`], 5_000);
    const inputs = toy.inputs.slice(sent);
    expect(inputs).toHaveLength(2);
    // A lone half (JSON's \ud83d) fails UTF-8 encoding on many endpoints, and with it a whole batch of tools.
    for (const input of inputs) expect(input).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(inputs.map((input) => input.length)).toEqual([1_999, 1_999]);
  });

  it('asks the endpoint again, a while after a fill that failed, for the tools still without vectors', async () => {
    const client = new EmbeddingsClient({ url: toy.url, model: 'toy', apiKey: '${TOY_KEY}' } as EmbeddingsSettings, env);
    const tools = buildCatalog(SOURCES, resolveConfig({})).catalog.tools;
    for (const [retryMs, embedded] of [[0, tools.length], [60_000, 0]] as const) {
      const vectors = new ToolVectors(tools, client, undefined, retryMs);
      toy.mode = 'garbage';
      expect((await vectors.fill()).error, String(retryMs)).toBeDefined();
      toy.mode = 'ok';
      expect((await vectors.fill()).embedded, String(retryMs)).toBe(embedded);
      expect(vectors.count, String(retryMs)).toBe(embedded);
    }
  });

  it('embeds every tool again when the endpoint answers vectors of another size than the cache holds (another model behind the same name)', async () => {
    const folder = tempTree({});
    const client = new EmbeddingsClient({ url: toy.url, model: 'toy', apiKey: '${TOY_KEY}' } as EmbeddingsSettings, env);
    const tools = buildCatalog(SOURCES, resolveConfig({})).catalog.tools;
    expect((await new ToolVectors(tools, client, folder).fill()).embedded).toBe(tools.length);
    toy.dims = 32;
    try {
      // A new tool makes the fill ask the endpoint, whose answer is of the new size: the cache is another model's.
      const grown = buildCatalog([...SOURCES, { server: 'extra', tools: [tool('count_widgets', 'Count widgets')] }], resolveConfig({})).catalog.tools;
      const vectors = new ToolVectors(grown, client, folder);
      expect(await vectors.fill()).toMatchObject({ embedded: grown.length, cached: 0 });
      expect(vectors.dimensions).toBe(32);
    } finally {
      toy.dims = 64;
    }
  });

  it('a search whose query vectors differ in size from the cached tool vectors answers by words, warns once, and embeds the tools again', async () => {
    const cacheDir = tempTree({});
    const logger = (warnings: string[]): Logger => ({ info: () => {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) });
    const config = resolveConfig({ discovery: { embeddings: { url: toy.url, model: 'toy', apiKey: '${TOY_KEY}', weight: 0.5, timeoutMs: 10_000 } } } as RcConfig);
    const open = (warnings: string[]) => new Gateway({ config, upstreams: [], locked: SOURCES, logger: logger(warnings), env: { ...env, LAZYTOOLS_CACHE_DIR: cacheDir } });
    expect(await warmSearch(open([]), 'zorbify')).toContain('frobnicate_widgets');
    toy.dims = 32;
    try {
      const warnings: string[] = [];
      const g = open(warnings);
      expect(await warmSearch(g, 'zorbify')).toContain('No tools match');
      expect(await warmSearch(g, 'zorbify')).toContain('frobnicate_widgets');
      expect(warnings.filter((w) => w.includes('dimensions'))).toHaveLength(1);
    } finally {
      toy.dims = 64;
    }
  });

  it('ignores cached vectors whose scale or row is not a unit vector\'s (NaN, Infinity, negative, huge): those tools are embedded again', async () => {
    const folder = tempTree({});
    const client = new EmbeddingsClient({ url: toy.url, model: 'toy', apiKey: '${TOY_KEY}' } as EmbeddingsSettings, env);
    const tools = buildCatalog(SOURCES, resolveConfig({})).catalog.tools;
    const first = new ToolVectors(tools, client, folder);
    expect((await first.fill()).embedded).toBe(tools.length);
    const file = path.join(folder, readdirSync(folder).find((name) => name.endsWith('.json')) ?? '');
    const json = JSON.parse(readFileSync(file, 'utf8')) as { dims: number; vectors: Record<string, string> };
    const forged = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0.001, 1e30];
    const digests = Object.keys(json.vectors);
    expect(digests.length).toBe(tools.length);
    digests.forEach((digest, i) => {
      const bytes = Buffer.from(json.vectors[digest] ?? '', 'base64');
      if (i < forged.length) bytes.writeFloatLE(forged[i] ?? 0, json.dims);
      else {
        // A finite scale of a real row's size, on a row far from unit length (every component the largest).
        bytes.fill(127, 0, json.dims);
        bytes.writeFloatLE(1 / 127, json.dims);
      }
      json.vectors[digest] = bytes.toString('base64');
    });
    writeFileSync(file, JSON.stringify(json));
    const vectors = new ToolVectors(tools, client, folder);
    expect(await vectors.fill()).toMatchObject({ embedded: tools.length, cached: 0 });
    const query = (await client.embed(['frobnicate widgets'], 10_000))[0] ?? new Float32Array(0);
    for (let doc = 0; doc < tools.length; doc++) {
      const similarity = vectors.similarity(doc, query) ?? Number.NaN;
      expect(Number.isFinite(similarity) && Math.abs(similarity) <= 1.01, `${doc}: ${similarity}`).toBe(true);
      expect(similarity).toBeCloseTo(first.similarity(doc, query) ?? Number.NaN, 6);
    }
    // The file was written again with the fresh vectors: a third start reads them all.
    expect(await new ToolVectors(tools, client, folder).fill()).toMatchObject({ embedded: 0, cached: tools.length });
    // Dimensions past what an endpoint may answer (8,192), or a file past what the cache writes: none read.
    const wide = JSON.parse(readFileSync(file, 'utf8')) as { dims: number; vectors: Record<string, string> };
    const row = Buffer.alloc(8_193 + 4);
    row.writeFloatLE(0, 8_193);
    writeFileSync(file, JSON.stringify({ dims: 8_193, vectors: Object.fromEntries(Object.keys(wide.vectors).map((digest) => [digest, row.toString('base64')])) }));
    expect(await new ToolVectors(tools, client, folder).fill()).toMatchObject({ embedded: tools.length, cached: 0 });
    writeFileSync(file, JSON.stringify({ ...wide, pad: 'x'.repeat(CACHE_BYTES + 2 * 1024 * 1024) }));
    expect(await new ToolVectors(tools, client, folder).fill()).toMatchObject({ embedded: tools.length, cached: 0 });
  });
});

describe('discovery.embeddings.url with a query or a user name (an api-version, a key in the URL)', () => {
  let toy: ToyEmbeddings;
  beforeAll(async () => (toy = await toyEmbeddings()));
  afterAll(() => toy.close());
  const SECRET = 'QuerySecret-98765';

  it('POSTs to <path>/embeddings with the query kept, and never prints the query\'s values (an endpoint echoing its URL, the warnings)', async () => {
    const warnings: string[] = [];
    const logger: Logger = { info: () => {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };
    const url = `${toy.url}/?api-version=2024-02-01&api-key=${SECRET}`;
    const config = resolveConfig({ discovery: { embeddings: { url, model: 'toy', apiKey: '${TOY_KEY}', timeoutMs: 10_000 } } } as RcConfig);
    const env = { TOY_KEY: KEY, LAZYTOOLS_CACHE_DIR: tempTree({}) };
    const g = new Gateway({ config, upstreams: [], locked: SOURCES, logger, env });
    const client = await inMemoryClient((t) => g.createSession().connect(t), { name: 'embeddings-query' });
    const search = async () => text(await client.callTool({ name: 'search_tools', arguments: { query: 'zorbify', detail: 'name', limit: 3 } }));
    await g.embeddings?.warm();
    expect(await search()).toContain('frobnicate_widgets');
    expect(toy.paths.at(-1)).toBe(`/v1/embeddings?api-version=2024-02-01&api-key=${SECRET}`);
    toy.mode = 'echo-url';
    try {
      const direct = new EmbeddingsClient({ url, model: 'toy', apiKey: '${TOY_KEY}' } as EmbeddingsSettings, env);
      const failure = await direct.embed(['x'], 10_000).catch((error: Error) => error.message);
      expect(failure).toContain('HTTP 404');
      expect(failure).not.toContain(SECRET);
      expect(direct.endpoint).not.toContain(SECRET);
      const fresh = new Gateway({ config, upstreams: [], locked: [{ server: 'other', tools: [tool('zorb', 'Zorbs')] }], logger, env: { ...env, LAZYTOOLS_CACHE_DIR: tempTree({}) } });
      const other = await inMemoryClient((t) => fresh.createSession().connect(t), { name: 'embeddings-query-2' });
      await other.callTool({ name: 'search_tools', arguments: { query: 'zorbify', detail: 'name' } });
      await fresh.embeddings?.warm();
    } finally {
      toy.mode = 'ok';
    }
    expect(warnings.length).toBeGreaterThan(0);
    for (const warning of warnings) expect(warning).not.toContain(SECRET);
    expect(warnings.join('\n')).toContain('api-key');
  });

  it('never prints a query part without a name or a value (`?<key>`, `?=<key>`): shown as `...`, and taken out of an echo', async () => {
    const env = { TOY_KEY: KEY };
    for (const query of [SECRET, `=${SECRET}`, `api-version=2024-02-01&${SECRET}`]) {
      const direct = new EmbeddingsClient({ url: `${toy.url}/?${query}`, model: 'toy', apiKey: '${TOY_KEY}' } as EmbeddingsSettings, env);
      expect(direct.endpoint).not.toContain(SECRET);
      expect(direct.endpoint).toMatch(/\/v1\/embeddings\?(api-version=\.\.\.&)?\.\.\.$/);
      toy.mode = 'echo-url';
      try {
        const failure = await direct.embed(['x'], 10_000).catch((error: Error) => error.message);
        expect(failure).toContain('HTTP 404');
        expect(failure).not.toContain(SECRET);
      } finally {
        toy.mode = 'ok';
      }
      expect(toy.paths.at(-1)).toContain(SECRET);
    }
  });

  it('an unset variable in the url or apiKey is said once, naming the rc file and key path, however often the catalog is rebuilt', async () => {
    const warnings: string[] = [];
    const logger: Logger = { info: () => {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };
    const file = path.join(tempTree({}), '.lazytoolsrc.json');
    for (const [embeddings, key] of [
      [{ url: '${LT_UNSET_EMBED_URL}', model: 'toy' }, 'url'],
      [{ url: toy.url, model: 'toy', apiKey: '${LT_UNSET_EMBED_KEY}' }, 'apiKey'],
    ] as const) {
      warnings.length = 0;
      const variable = key === 'url' ? 'LT_UNSET_EMBED_URL' : 'LT_UNSET_EMBED_KEY';
      const config = resolveConfig({ discovery: { embeddings } } as RcConfig, file);
      const g = new Gateway({ config, upstreams: [], locked: SOURCES, logger, env: { LAZYTOOLS_CACHE_DIR: tempTree({}) } });
      const client = await inMemoryClient((t) => g.createSession().connect(t), { name: 'embeddings-unset' });
      const search = async () => text(await client.callTool({ name: 'search_tools', arguments: { query: 'list widgets', detail: 'name' } }));
      expect(await search()).toContain('list_widgets');
      // A new catalog (an upstream's tools arrived or changed) sets meaning up again: nothing new to say.
      g.rebuild();
      expect(await search()).toContain('list_widgets');
      expect(warnings).toEqual([`${file}: discovery.embeddings.${key}: environment variable ${variable} is not set (referenced as \${${variable}}); search uses words only`]);
      await client.close();
    }
    // A variable holding no URL at all: the file and key too, and not the value (it may hold a key).
    warnings.length = 0;
    const config = resolveConfig({ discovery: { embeddings: { url: '${LT_NOT_A_URL}', model: 'toy' } } } as RcConfig, file);
    const g = new Gateway({ config, upstreams: [], locked: SOURCES, logger, env: { LT_NOT_A_URL: 'not a url sk-4f9a1c7e', LAZYTOOLS_CACHE_DIR: tempTree({}) } });
    expect(g.embeddings).toBeDefined();
    g.rebuild();
    expect(g.embeddings).toBeDefined();
    expect(warnings).toEqual([`${file}: discovery.embeddings.url: expected an http or https URL, got something that is no URL; search uses words only`]);
  });

  it('refuses a URL with a user name or password (fetch cannot send one, and would print it): a warning without it, search by words', async () => {
    const warnings: string[] = [];
    const logger: Logger = { info: () => {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };
    const url = toy.url.replace('http://', `http://user:${SECRET}@`);
    const config = resolveConfig({ discovery: { embeddings: { url, model: 'toy' } } } as RcConfig);
    const g = new Gateway({ config, upstreams: [], locked: SOURCES, logger, env: { LAZYTOOLS_CACHE_DIR: tempTree({}) } });
    const client = await inMemoryClient((t) => g.createSession().connect(t), { name: 'embeddings-userinfo' });
    expect(text(await client.callTool({ name: 'search_tools', arguments: { query: 'list widgets', detail: 'name' } }))).toContain('list_widgets');
    expect(warnings.join('\n')).toMatch(/user name or password/);
    for (const warning of warnings) expect(warning).not.toContain(SECRET);
  });
});
