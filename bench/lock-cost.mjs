// What `lazytools lock` adds per tool on top of listing the servers: making the lock file of
// 1,000 real-shaped tools (placement, group matching, the placement cache section and token counts
// under the preset config), CPU time in this process. Each run gets fresh definition objects, as a
// new `lazytools lock` process parses them: a re-lock of unchanged tools pays the same (no model
// runs at lock time, so there is nothing slower to skip). Target: <= 20 ms a tool.
import { makeLock } from '../dist/catalog/lock.js';
import { resolveConfig } from '../dist/index.js';
import { realShapedSources } from './placement.mjs';
import { round, summary } from './lib.mjs';

export function lockCost({ count = 1_000, runs = 7 } = {}) {
  const sources = realShapedSources(count);
  const config = resolveConfig({});
  makeLock(sources, config);
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const fresh = sources.map((s) => ({ server: s.server, tools: s.tools.map((tool) => JSON.parse(JSON.stringify(tool))) }));
    const since = process.cpuUsage();
    makeLock(fresh, config);
    const used = process.cpuUsage(since);
    cpu.push((used.user + used.system) / 1000);
  }
  const cpuMs = summary(cpu);
  return { tools: count, cpuMs, perToolMs: round(cpuMs.p50 / count, 3) };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(lockCost(), null, 2));
