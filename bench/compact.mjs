// Compact definitions (rc `definitions`): the token cut on each fixture catalog (o200k over
// {name, description, input_schema}, as status counts), and what compacting costs when a catalog of
// 10,000 tools is built and listed: generated GitHub-shaped tools (bench/generate.mjs) and tools
// cycled from the real fixtures (bigger schemas, longer descriptions).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildCatalog, parseCatalog, resolveConfig } from '../dist/index.js';
import { compactDefinition } from '../dist/catalog/compact.js';
import { countToolTokens } from '../dist/util/tokens.js';
import { generateCatalog } from './generate.mjs';
import { realShapedSources } from './placement.mjs';
import { ROOT, round, summary } from './lib.mjs';

const FIXTURES = ['real-world.json', 'github-mcp-server.json', 'reference-servers.json'];

const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** Verbatim and compact tokens of every tool of one catalog file. */
function fixtureCut(file) {
  const catalog = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/catalogs', file), 'utf8'));
  const tools = Object.values(catalog.servers).flatMap((server) => server.tools);
  let verbatim = 0;
  let compact = 0;
  let changed = 0;
  for (const tool of tools) {
    const out = compactDefinition(tool);
    if (out !== tool) changed++;
    verbatim += countToolTokens(tool);
    compact += countToolTokens(out);
  }
  return { file, tools: tools.length, changed, verbatim, compact, cut: round(1 - compact / verbatim, 4) };
}

/**
 * CPU ms to build a catalog and read every tool's listed definition (what a tools/list of mode
 * `all` or a status does first), verbatim vs compact, interleaved; fresh definition objects each
 * run, since compact definitions are kept per definition object.
 */
function buildCost(sources, runs) {
  const settings = { verbatim: resolveConfig({ definitions: 'verbatim' }), compact: resolveConfig({ definitions: 'compact' }) };
  const samples = { verbatim: [], compact: [] };
  const fresh = () => sources.map((s) => ({ server: s.server, tools: s.tools.map((tool) => ({ ...tool })) }));
  for (let i = 0; i < runs + 1; i++) {
    for (const [name, config] of Object.entries(settings)) {
      const input = fresh();
      const cpu = process.cpuUsage();
      const { catalog } = buildCatalog(input, config);
      for (const tool of catalog.tools) void tool.listed;
      if (i > 0) samples[name].push(cpuMs(cpu)); // the first round warms up
    }
  }
  const compactAlone = [];
  for (let i = 0; i < runs; i++) {
    const tools = fresh().flatMap((s) => s.tools);
    const cpu = process.cpuUsage();
    for (const tool of tools) compactDefinition(tool);
    compactAlone.push(cpuMs(cpu));
  }
  const { catalog: verbatimCatalog } = buildCatalog(sources, settings.verbatim);
  const { catalog: compactCatalog } = buildCatalog(sources, settings.compact);
  const listedTokens = (catalog) => catalog.tools.reduce((sum, tool) => sum + tool.tokens, 0);
  return {
    tools: verbatimCatalog.tools.length,
    buildVerbatimCpuMs: round(summary(samples.verbatim).p50, 1),
    buildCompactCpuMs: round(summary(samples.compact).p50, 1),
    compactOnlyCpuMs: round(summary(compactAlone).p50, 1),
    verbatimTokens: listedTokens(verbatimCatalog),
    compactTokens: listedTokens(compactCatalog),
  };
}

export function compact({ runs = 5 } = {}) {
  const fixtures = FIXTURES.map(fixtureCut);
  const generated = buildCost(parseCatalog(generateCatalog(10_000)), runs);
  const realShaped = buildCost(realShapedSources(10_000), runs);
  return { fixtures, generated10k: generated, realShaped10k: realShaped };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(compact(), null, 2));
