import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupAfterEach, FIXTURES, rcProject, serveHttpCli, stopAll, text } from '../harness/index.js';
import { generateCatalog } from '../../bench/generate.mjs';
import { parseCatalog } from '../../src/catalog/file.js';
import { makeLock } from '../../src/catalog/lock.js';
import { resolveConfig } from '../../src/config/resolve.js';

// One client's costly search_tools calls must not hold another client's calls: a search runs in
// passes with the event loop let through between them (search/passes.ts). Served by the built
// CLI over a real 127.0.0.1 listener, so the clients' event loop is not the gateway's.

const cleanups = cleanupAfterEach();
afterEach(stopAll);

/** Words of the generated catalog (GitHub-shaped tools), so each step of each task matches many tools. */
const WORDS = 'github repository issue pull request list variant specific update existing search details review create from alerts comment write organization delete branch file commit workflow notification label milestone release discussion security'.split(' ');
/** A 4 KB task of nine "then"-joined steps of forty words: the costliest query search_tools reads. */
const task = (j: number) =>
  Array.from({ length: 9 }, (_, i) => Array.from({ length: 40 }, (_, k) => WORDS[(i * 5 + j + k) % WORDS.length]).join(' '))
    .join(', then ')
    .slice(0, 4096);

async function client(url: string, name: string): Promise<Client> {
  const made = new Client({ name, version: '1' });
  await made.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanups.push(() => made.close());
  return made;
}

describe('search_tools and other clients', () => {
  it("answers another client's tools/call while one client's costly searches run", async () => {
    // 4,000 generated tools from a lock (their servers are never started: nothing calls them), and
    // one real upstream the other client calls.
    const catalog = generateCatalog(4_000) as { servers: Record<string, unknown> };
    const servers: Record<string, { command: string; args: string[] }> = Object.fromEntries(Object.keys(catalog.servers).map((name) => [name, { command: process.execPath, args: ['-e', 'process.exit(1)'] }]));
    servers.gen = { command: process.execPath, args: [FIXTURES.generatedServer, '0', '3'] };
    const rc = { defaultMode: 'all', servers };
    const { dir, file } = rcProject(rc);
    writeFileSync(path.join(dir, 'lazytools.lock.json'), JSON.stringify(makeLock(parseCatalog(catalog), resolveConfig(rc, file))));
    const { url } = await serveHttpCli([], { cwd: dir });
    const costly = await client(url, 'costly');
    const other = await client(url, 'other');
    const light = () => other.callTool({ name: 'execute_tool', arguments: { name: 'list_invoice_0_0', arguments: { id: 'x' } } });
    expect(text(await light())).toContain('gen-0 ran list_invoice_0_0'); // the upstream is up

    const queries = Array.from({ length: 10 }, (_, j) => task(j));
    const answered: string[] = [];
    const searches = Array.from({ length: 4 }, (_, i) =>
      costly.callTool({ name: 'search_tools', arguments: { queries, limit: 50 } }).then((result) => {
        answered.push(`search ${i}`);
        return result;
      }),
    );
    // Sent just after the searches: each of them makes about 18 passes over the catalog.
    const call = light().then((result) => {
      answered.push('call');
      return result;
    });
    const [results, result] = await Promise.all([Promise.all(searches), call]);
    expect(text(result)).toContain('gen-0 ran list_invoice_0_0');
    for (const found of results) expect(found.isError, text(found)).toBeFalsy();
    expect(answered[0], `order of answers: ${answered.join(', ')}`).toBe('call');
  });
});
