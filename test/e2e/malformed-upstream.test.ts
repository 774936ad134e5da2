import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SERVER_ITEMS, MAX_SERVER_LIST_BYTES, MAX_SERVER_TOOLS } from '../../src/catalog/admit.js';
import { StdioUpstreamTransport } from '../../src/upstream/stdio-transport.js';
import type { UpstreamError } from '../../src/upstream/error.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { FIXTURES, ROOT, waitFor } from '../harness/index.js';

/** Malformed upstream answers, list_changed bursts and upstreams that exit at start. */

const RAW_SERVER = FIXTURES.rawServer;
const upstreams: Upstream[] = [];
afterEach(async () => {
  while (upstreams.length > 0) await upstreams.pop()?.stop();
});

function rawUpstream(mode = 'normal', env: Record<string, string> = {}, timeoutMs = 60_000): Upstream {
  const upstream = new Upstream('raw', {
    connect: () => new StdioUpstreamTransport({ command: process.execPath, args: [RAW_SERVER, mode], env: { ...env, PATH: process.env.PATH ?? '' }, cwd: ROOT, onStderr: () => {} }),
    timeoutMs,
  });
  upstreams.push(upstream);
  return upstream;
}

/** Calls through the relay; `raw` set means the caller can take raw lines (the stdio front). */
function relay(upstream: Upstream, name: string, raw: boolean): Promise<{ error?: string; result?: unknown; rawLine?: string }> {
  return new Promise((resolve) => {
    upstream.relay(
      { name, arguments: {} },
      (error, result) => resolve(error ? { error: (error as UpstreamError).message } : { result }),
      undefined,
      undefined,
      raw ? (prefix) => resolve({ rawLine: prefix }) : undefined,
    );
  });
}

describe('malformed upstream answers fail the call at once, naming the server', () => {
  for (const raw of [false, true]) {
    it(`a result that is not an object (${raw ? 'raw' : 'parsed'} path)`, async () => {
      const upstream = rawUpstream();
      await upstream.start();
      const answer = await relay(upstream, 'non_object', raw);
      expect(answer.error).toMatch(/upstream "raw" answered with a result that is not an object/);
    });

    it(`an invalid JSON line (${raw ? 'raw' : 'parsed'} path)`, async () => {
      const upstream = rawUpstream();
      await upstream.start();
      const answer = await relay(upstream, 'bad_json', raw);
      expect(answer.error).toMatch(/upstream "raw" sent a line that is not a JSON-RPC message/);
      expect((await relay(upstream, 'bad_json2', raw)).error).toMatch(/upstream "raw" sent a line that is not a JSON-RPC message/);
    });

    it(`a line that is both a request and a response (${raw ? 'raw' : 'parsed'} path)`, async () => {
      const upstream = rawUpstream();
      await upstream.start();
      const answer = await relay(upstream, 'mixed', raw);
      expect(answer.error).toMatch(/upstream "raw" answered with a message that is both a request and a response/);
    });
  }

  it('a stray log line on stdout that names no call fails nothing', async () => {
    const upstream = rawUpstream();
    await upstream.start();
    expect((await relay(upstream, 'noisy', false)).result).toEqual({ content: [{ type: 'text', text: 'noisy done' }] });
  });

  it('a well-formed result still passes the raw path untouched', async () => {
    const upstream = rawUpstream();
    await upstream.start();
    const answer = await relay(upstream, 'ok', true);
    expect(answer.rawLine).toBe('{"result":{"content":[{"type":"text","text":"ok called"}]},"jsonrpc":"2.0"');
  });

  it('a result over the size limit fails with its size, long before the call timeout', async () => {
    const upstream = rawUpstream('normal', {}, 600_000);
    await upstream.start();
    const answer = await relay(upstream, 'huge', false);
    expect(answer.error).toMatch(/upstream "raw" sent a result of 65\.0 MiB, over the 64\.0 MiB limit/);
    // The upstream is still usable afterwards.
    expect((await relay(upstream, 'ok', false)).result).toEqual({ content: [{ type: 'text', text: 'ok called' }] });
  }, 120_000);

  it('a result of more JSON values than a message may hold fails saying so, unparsed', async () => {
    const upstream = rawUpstream('normal', {}, 600_000);
    await upstream.start();
    for (const raw of [false, true]) {
      const answer = await relay(upstream, 'many_values', raw);
      expect(answer.error).toMatch(/upstream "raw" sent a message of more than 2,000,000 JSON values, more than lazytools reads of one/);
    }
    expect((await relay(upstream, 'ok', false)).result).toEqual({ content: [{ type: 'text', text: 'ok called' }] });
  }, 120_000);
});

describe('upstream list_changed bursts coalesce', () => {
  it('2,000 list_changed cause at most one re-list in flight and one after it', async () => {
    const upstream = rawUpstream();
    let changes = 0;
    upstream.onToolsChanged = () => changes++;
    await upstream.start();
    await relay(upstream, 'burst', false);
    expect(await waitFor(() => changes > 0 && !upstream.relisting, 20_000)).toBe(true);
    const counted = await relay(upstream, 'count', false);
    const lists = Number((counted.result as { content: Array<{ text: string }> }).content[0]?.text);
    // One list at start, then at most two for the burst.
    expect(lists).toBeGreaterThanOrEqual(2);
    expect(lists).toBeLessThanOrEqual(3);
  }, 120_000);
});

describe('an upstream that lists far more tools than any real server', () => {
  /** The raw server listing `total` tools in pages of `page`; its warnings are collected. */
  function manyTools(total: number, page: number, env: Record<string, string> = {}): { upstream: Upstream; warnings: string[] } {
    const warnings: string[] = [];
    const upstream = new Upstream('many', {
      connect: () =>
        new StdioUpstreamTransport({
          command: process.execPath,
          args: [RAW_SERVER],
          env: { RAW_MANY_TOOLS: String(total), RAW_MANY_PAGE: String(page), PATH: process.env.PATH ?? '', ...env },
          cwd: ROOT,
          onStderr: () => {},
        }),
      timeoutMs: 60_000,
      logger: { info: () => {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) },
    });
    upstreams.push(upstream);
    return { upstream, warnings };
  }

  // One upstream listing a million tools held the whole gateway (every client, /healthz) for
  // minutes while the catalog was built, at 2.1 GB RSS; each re-list did it again.
  it(`keeps the first ${MAX_SERVER_TOOLS} tools over pages, asks for no page past them, and says so once`, async () => {
    const { upstream, warnings } = manyTools(MAX_SERVER_TOOLS * 3, 1_000);
    await upstream.start();
    expect(upstream.tools.length, 'tools kept of 30,000 listed').toBe(MAX_SERVER_TOOLS);
    expect(upstream.tools[0]?.name).toBe('many_0');
    expect(upstream.tools.at(-1)?.name).toBe(`many_${MAX_SERVER_TOOLS - 1}`);
    const counted = await relay(upstream, 'count', false);
    const lists = Number((counted.result as { content: Array<{ text: string }> }).content[0]?.text);
    expect(lists, 'pages asked for').toBe(MAX_SERVER_TOOLS / 1_000);
    const told = warnings.filter((line) => line.includes(`more than ${MAX_SERVER_TOOLS} tools`));
    expect(told, warnings.join('\n')).toHaveLength(1);
  }, 120_000);

  it(`keeps the first ${MAX_SERVER_TOOLS} of one page`, async () => {
    const { upstream, warnings } = manyTools(MAX_SERVER_TOOLS + 5, MAX_SERVER_TOOLS + 5);
    await upstream.start();
    expect(upstream.tools.length).toBe(MAX_SERVER_TOOLS);
    expect(warnings.filter((line) => line.includes(`more than ${MAX_SERVER_TOOLS} tools`))).toHaveLength(1);
  }, 120_000);

  // A million resources cost every client 0.5 to 2.6 s of event loop per resources/list page.
  it(`keeps the first ${MAX_SERVER_ITEMS} prompts, resources and templates, each list apart`, async () => {
    const { upstream, warnings } = manyTools(1, 1, { RAW_MANY_ITEMS: String(MAX_SERVER_ITEMS + 2_000) });
    await upstream.start();
    const { prompts, resources, templates } = upstream.primitives;
    expect([prompts.length, resources.length, templates.length]).toEqual([MAX_SERVER_ITEMS, MAX_SERVER_ITEMS, MAX_SERVER_ITEMS]);
    expect(resources.at(-1)?.uri).toBe(`raw:///r/${MAX_SERVER_ITEMS - 1}`);
    for (const what of ['prompts', 'resources', 'resource templates'])
      expect(warnings.filter((line) => line.includes(`more than ${MAX_SERVER_ITEMS} ${what}:`)), warnings.join('\n')).toHaveLength(1);
  }, 120_000);

  // 4,000 definitions of 900 KB (each within MAX_DEFINITION_BYTES) held 3.8 GB in the gateway; 10,000 pass the heap's limit.
  it(`keeps the first tools within ${MAX_SERVER_LIST_BYTES / 1024 / 1024} MiB of definitions, and asks for no page past them`, async () => {
    const { upstream, warnings } = manyTools(200, 20, { RAW_FAT_KB: '900' });
    await upstream.start();
    // 72 definitions of 900 KiB and a few bytes fit in 64 MiB; the 73rd does not.
    const kept = Math.floor(MAX_SERVER_LIST_BYTES / (900 * 1024 + 100));
    expect(upstream.tools.length).toBe(kept);
    expect(upstream.tools.at(-1)?.name).toBe(`many_${kept - 1}`);
    const counted = await relay(upstream, 'count', false);
    expect(Number((counted.result as { content: Array<{ text: string }> }).content[0]?.text), 'pages asked for').toBe(Math.ceil((kept + 1) / 20));
    expect(warnings).toEqual([`many: lists tool definitions of more than 64.0 MiB: only the ${kept} tools before "many_${kept}" are served`]);
  }, 120_000);

  it(`keeps the first prompts, resources and templates within ${MAX_SERVER_LIST_BYTES / 1024 / 1024} MiB each`, async () => {
    const { upstream, warnings } = manyTools(1, 1, { RAW_MANY_ITEMS: '200', RAW_FAT_KB: '900' });
    await upstream.start();
    const kept = Math.floor(MAX_SERVER_LIST_BYTES / (900 * 1024 + 100));
    const { prompts, resources, templates } = upstream.primitives;
    expect([prompts.length, resources.length, templates.length]).toEqual([kept, kept, kept]);
    expect(warnings.sort()).toEqual([
      `many: lists prompts of more than 64.0 MiB: only the ${kept} prompts before "p${kept}" are served`,
      `many: lists resource templates of more than 64.0 MiB: only the ${kept} resource templates before "raw${kept}:///{x}" are served`,
      `many: lists resources of more than 64.0 MiB: only the ${kept} resources before "raw:///r/${kept}" are served`,
    ]);
  }, 120_000);

  it('keeps every tool of a list at the bound, with no warning', async () => {
    const { upstream, warnings } = manyTools(MAX_SERVER_TOOLS, 2_500);
    await upstream.start();
    expect(upstream.tools.length).toBe(MAX_SERVER_TOOLS);
    expect(warnings).toEqual([]);
  }, 120_000);
});

describe('an upstream that exits at start', () => {
  it('reports its exit code and the tail of its stderr', async () => {
    const upstream = rawUpstream('exit-at-start');
    const error = await upstream.start().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/exited with code 3 during start-up/);
    expect(error?.message).toContain('fatal: missing configuration file /etc/raw-server.conf');
  });

  it('whose initialize answer is refused is told why, not that it exited (it ends because the gateway closed it)', async () => {
    const upstream = rawUpstream('old-version');
    const error = await upstream.start().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain("Server's protocol version is not supported: 1999-01-01");
    expect(error?.message).not.toMatch(/exited with code|during start-up/);
  });
});
