// Cost of one catalog change with many groups listen streams open (issue 20): `streams`
// 2026-07-28 subscriptions/listen requests that declare io.modelcontextprotocol/groups, all on the
// default view of a generated catalog, watch the gateway; each rebuild recomputes their views'
// group digests (one per view and catalog since issue 20, one per stream before). Prints the
// milliseconds of one rebuild, median of `runs`. Usage: node bench/groups-listen.mjs [tools] [streams] [dist dir]
import path from 'node:path';
import { ROOT, round, summary } from './lib.mjs';
import { generatedProject } from './scale.mjs';

export async function groupsListen({ tools = 1000, streams = 200, runs = 9, dist = path.join(ROOT, 'dist') } = {}) {
  const { serve } = await import(path.join(dist, 'front/serve.js'));
  const { groupsSubscription, watchGroups } = await import(path.join(dist, 'front/modern/groups-listen.js'));
  const { silentLogger } = await import(path.join(dist, 'util/log.js'));
  const dir = generatedProject(tools);
  const served = await serve({ config: path.join(dir, '.lazytoolsrc.json'), http: { port: 0 }, logger: silentLogger });
  const gateway = served.gateway;
  const meta = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/groups': {} } } };
  const stops = [];
  for (let i = 0; i < streams; i++) {
    const message = { jsonrpc: '2.0', id: i, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta } };
    stops.push(watchGroups(gateway, {}, groupsSubscription(message), () => {}));
  }
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    gateway.rebuild();
    samples.push(performance.now() - start);
  }
  for (const stop of stops) stop();
  await served.close();
  return { tools, streams, rebuildMs: summary(samples), medianMs: round(summary(samples).p50, 1) };
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await groupsListen({ tools: Number(process.argv[2] ?? 1000), streams: Number(process.argv[3] ?? 200), ...(process.argv[4] ? { dist: path.resolve(process.argv[4]) } : {}) })));
