// Tokens per preset mode and strategy on the shared catalogs (154 tools), and the proxy list's
// size as generated catalogs grow.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { buildCatalog, Gateway, parseCatalog, resolveConfig, statusReport } from '../dist/index.js';
import { mergeCatalogs } from '../dist/catalog/file.js';
import { countToolTokens } from '../dist/util/tokens.js';
import { generateCatalog } from './generate.mjs';
import { ROOT } from './lib.mjs';

export function sharedSources() {
  const read = (name) => parseCatalog(JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/catalogs', name), 'utf8')));
  return mergeCatalogs([read('github-mcp-server.json'), read('reference-servers.json')]);
}

/** Tokens of the list a real client receives from a session with this strategy. */
async function listedTokens(sources, strategy) {
  const gateway = new Gateway({ config: resolveConfig({ strategy }), upstreams: [], locked: sources });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.createSession().connect(serverSide);
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return { tools: tools.length, tokens: tools.reduce((sum, tool) => sum + countToolTokens(tool), 0) };
}

export async function tokens() {
  const sources = sharedSources();
  const config = resolveConfig({});
  const { catalog } = buildCatalog(sources, config);
  const strategies = {};
  for (const strategy of ['notify', 'hybrid', 'proxy']) {
    strategies[strategy] = statusReport(catalog, config, strategy).modes.map(({ name, tools, totalTools, tokens, totalTokens, reduction, budget, withinBudget }) => ({
      name, tools, totalTools, tokens, totalTokens, reduction, budget, withinBudget,
    }));
  }
  const proxyGrowth = [];
  for (const [label, list] of [['shared (154)', sources], ['1,000', parseCatalog(generateCatalog(1_000))], ['10,000', parseCatalog(generateCatalog(10_000))]]) {
    const total = list.reduce((n, s) => n + s.tools.length, 0);
    proxyGrowth.push({ catalog: label, catalogTools: total, ...(await listedTokens(list, 'proxy')) });
  }
  return { totalTools: catalog.tools.length, totalTokens: catalog.totalTokens, strategies, proxyGrowth, proxyInitialTokens: proxyGrowth[0].tokens };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await tokens(), null, 2));
