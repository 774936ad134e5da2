// Placement speed: building a catalog of 10,000 real-shaped tools (cycled from the real-world,
// GitHub and reference fixtures) with the preset groups, which scores every tool's topics and write
// status and matches it against every group; and scoring alone. Target: <= 1 s for 10,000 tools.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildCatalog, resolveConfig } from '../dist/index.js';
import { scoreTopics } from '../dist/catalog/placement.js';
import { writeStatus } from '../dist/catalog/read-only.js';
import { ROOT, round, summary } from './lib.mjs';

const FIXTURES = ['real-world.json', 'github-mcp-server.json', 'reference-servers.json'];

/** `count` tools cycled from the real catalogs, renamed per copy so no two are the same. */
export function realShapedSources(count) {
  const tools = [];
  for (const file of FIXTURES) {
    const catalog = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/catalogs', file), 'utf8'));
    for (const [server, entry] of Object.entries(catalog.servers)) for (const tool of entry.tools) tools.push({ server, tool });
  }
  const servers = new Map();
  for (let i = 0; i < count; i++) {
    const { server, tool } = tools[i % tools.length];
    const copy = Math.floor(i / tools.length);
    const name = `${server}-${copy}`;
    if (!servers.has(name)) servers.set(name, []);
    servers.get(name).push({ ...tool, name: `${tool.name}_${copy}` });
  }
  return [...servers].map(([server, list]) => ({ server, tools: list }));
}

export function placement({ count = 10_000, runs = 7 } = {}) {
  const sources = realShapedSources(count);
  const config = resolveConfig({});
  const inputs = sources.flatMap((s) => s.tools.map((tool) => ({ server: s.server, name: tool.name, title: tool.title, description: tool.description, annotations: tool.annotations, inputSchema: tool.inputSchema })));
  buildCatalog(sources, config);
  // Wall time and CPU time (user + system) of this process: on a shared machine the CPU figure is
  // what placement costs, the wall figure what it took with other processes competing.
  const build = [];
  const buildCpu = [];
  const score = [];
  const scoreCpu = [];
  const cpuMs = (since) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  for (let i = 0; i < runs; i++) {
    // Fresh definition objects each run: the catalog caches placement per definition object.
    const fresh = sources.map((s) => ({ server: s.server, tools: s.tools.map((tool) => ({ ...tool })) }));
    let start = performance.now();
    let cpu = process.cpuUsage();
    buildCatalog(fresh, config);
    build.push(performance.now() - start);
    buildCpu.push(cpuMs(cpu));
    start = performance.now();
    cpu = process.cpuUsage();
    for (const input of inputs) {
      scoreTopics(input);
      writeStatus(input);
    }
    score.push(performance.now() - start);
    scoreCpu.push(cpuMs(cpu));
  }
  return {
    tools: count,
    buildCatalogMs: round(summary(build).p50, 1),
    buildCatalogCpuMs: round(summary(buildCpu).p50, 1),
    scoreOnlyMs: round(summary(score).p50, 1),
    scoreOnlyCpuMs: round(summary(scoreCpu).p50, 1),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(placement(), null, 2));
