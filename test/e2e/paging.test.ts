import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeLock } from '../../src/catalog/lock.js';
// @ts-expect-error: a plain .mjs fixture shared with the fixture server, no types
import { generatedTools } from '../fixtures/servers/generated-tools.mjs';
import { FIXTURES, rcProject, cliStdio, suiteGateway } from '../harness/index.js';

const SERVERS = 100;
const PER_SERVER = 100;
const FIXTURE = FIXTURES.generatedServer;
const toolsOf = generatedTools as (server: number, perServer: number) => Tool[];

/** A project of 100 generated stdio servers (10,000 tools) behind a lock, served in mode `all`. */
function largeProject(): string {
  const servers: Record<string, unknown> = {};
  const sources = [];
  for (let s = 0; s < SERVERS; s++) {
    servers[`gen-${s}`] = { command: process.execPath, args: [FIXTURE, String(s), String(PER_SERVER)] };
    sources.push({ server: `gen-${s}`, tools: toolsOf(s, PER_SERVER) });
  }
  const { dir } = rcProject({ servers, defaultMode: 'all' });
  writeFileSync(path.join(dir, 'lazytools.lock.json'), JSON.stringify(makeLock(sources)));
  return dir;
}

/** Lists every page, following nextCursor, and returns the tools and the pages' sizes. */
async function listAll(client: Client): Promise<{ tools: Tool[]; pages: number[] }> {
  const tools: Tool[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    pages.push(Buffer.byteLength(JSON.stringify(page)));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { tools, pages };
}

async function listsAndCalls(client: Client) {
  const { tools, pages } = await listAll(client);
  const names = tools.map((tool) => tool.name);
  expect(new Set(names).size).toBe(names.length);
  for (let s = 0; s < SERVERS; s += 33) for (const tool of toolsOf(s, PER_SERVER)) expect(names).toContain(tool.name);
  expect(names.filter((name) => /^[a-z]+_[a-z]+_\d+_\d+$/.test(name))).toHaveLength(SERVERS * PER_SERVER);
  expect(pages.length).toBeGreaterThan(1);
  for (const bytes of pages) expect(bytes).toBeLessThan(1024 * 1024 + 64 * 1024);
  const target = toolsOf(57, PER_SERVER)[9]!.name;
  const result = (await client.callTool({ name: target, arguments: { id: 'r-1' } })) as CallToolResult;
  expect(result.content[0]).toEqual({ type: 'text', text: `gen-57 ran ${target} with {"id":"r-1"}` });
  expect(result.isError).toBeFalsy();
  await expect(client.listTools({ cursor: 'bm90IGEgY3Vyc29y' })).rejects.toThrow(/-32602.*Invalid cursor/);
}

describe('large lists are paged (10,000 tools from a lock)', () => {
  let dir: string;
  beforeAll(() => {
    dir = largeProject();
  });

  it('an SDK client over stdio lists all 10,000 tools page by page, then calls one', async () => {
    const client = new Client({ name: 'paging-stdio', version: '1.0.0' });
    const transport = new StdioClientTransport(cliStdio(['serve'], { cwd: dir }));
    await client.connect(transport);
    try {
      await listsAndCalls(client);
    } finally {
      await client.close();
    }
  });

  describe('over Streamable HTTP', () => {
    const suite = suiteGateway(() => path.join(dir, '.lazytoolsrc.json'), () => ({ cwd: dir }));

    it('an SDK client lists all 10,000 tools page by page, then calls one', async () => {
      const client = new Client({ name: 'paging-http', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
      try {
        await listsAndCalls(client);
      } finally {
        await client.close();
      }
    });
  });
});
