import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { statusReport } from '../tokens/report.js';
import type { Metrics } from '../transports/http-ops.js';
import type { Gateway } from './gateway.js';
import { distinctShownName } from '../config/secrets.js';

/** The label a call gets whose tool is not in the catalog (so no upstream can grow the label set). */
const UNLISTED_TOOL = '(unlisted)';

/**
 * Prometheus metrics of one gateway (rc `metrics: true` or `serve --metrics`), on prom-client with
 * a registry of its own. Loaded only when metrics are on (serve imports this module lazily), so a
 * gateway without them pays nothing at start. Calls are counted as they end (Upstream.onSettled,
 * labelled by server and tool as the catalog names them, UNLISTED_TOOL otherwise); the labels of
 * tools that left the catalog are removed, so the label set is bounded by the current catalog
 * (an upstream renaming its 200 tools forty times made 8,000 labels and a 10.9 MB scrape). Sessions,
 * list_changed sent and tokens per mode are read from the gateway at scrape time, the status
 * report once per catalog and config.
 */
export function createMetrics(gateway: Gateway): Metrics {
  const registry = new Registry();
  const labelNames = ['server', 'tool'] as const;
  const calls = new Counter({ name: 'lazytools_tool_calls_total', help: 'tools/call requests relayed to upstreams, by server and tool.', labelNames, registers: [registry] });
  const errors = new Counter({ name: 'lazytools_tool_call_errors_total', help: 'Relayed tools/call requests that failed (an error, or a result with isError), by server and tool.', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'lazytools_tool_call_duration_seconds',
    help: 'Time from relaying a tools/call to its answer, by server and tool.',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  /** Label sets in use, by `server\ntool`, so the ones whose tool left the catalog can go. */
  const labelled = new Map<string, { server: string; tool: string }>();
  gateway.observeCalls((upstream, method, tool, ms, failed) => {
    if (method !== 'tools/call') return;
    const listed = catalogKeys(gateway).has(`${upstream.name}\n${tool}`);
    const labels = { server: distinctShownName(upstream.name), tool: listed ? tool : UNLISTED_TOOL };
    // Keyed by the real name (prune compares with the catalog); labelled as every output shows a
    // name, a token-shaped one with a digest suffix so two such servers keep their series apart.
    labelled.set(`${upstream.name}\n${labels.tool}`, labels);
    calls.inc(labels);
    if (failed) errors.inc(labels);
    latency.observe(labels, ms / 1000);
  });
  const prune = (): void => {
    const keys = catalogKeys(gateway);
    for (const [key, labels] of labelled) {
      if (labels.tool === UNLISTED_TOOL || keys.has(key)) continue;
      labelled.delete(key);
      for (const metric of [calls, errors, latency]) metric.remove(labels);
    }
  };
  gateway.listChangeListeners.add((kind) => kind === 'tools' && prune());
  new Gauge({
    name: 'lazytools_sessions',
    help: 'Client sessions open (stdio and 2025-era HTTP sessions; 2026-07-28 requests keep none).',
    registers: [registry],
    collect() {
      this.set(gateway.sessions.size);
    },
  });
  new Counter({
    name: 'lazytools_list_changed_sent_total',
    help: 'notifications/tools/list_changed sent to sessions.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(gateway.listChangedSent);
    },
  });
  new Gauge({
    name: 'lazytools_visible_tokens',
    help: 'Tokens of the tool list a session sees in each mode (lazytools\' own tools included), as lazytools status counts them.',
    labelNames: ['mode'],
    registers: [registry],
    collect() {
      this.reset();
      for (const mode of report(gateway).modes) this.set({ mode: mode.name }, mode.tokens);
    },
  });
  new Gauge({
    name: 'lazytools_server_up',
    help: '1 when the upstream server is connected, else 0 (lazy, starting, down or failed).',
    labelNames: ['server'],
    registers: [registry],
    collect() {
      this.reset();
      for (const server of gateway.serverStates()) this.set({ server: distinctShownName(server.name) }, server.state === 'up' ? 1 : 0);
    },
  });
  return {
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** `server\ntool` of every catalog tool, once per catalog. */
const keysByCatalog = new WeakMap<object, ReadonlySet<string>>();
function catalogKeys(gateway: Gateway): ReadonlySet<string> {
  let keys = keysByCatalog.get(gateway.catalog);
  if (!keys) keysByCatalog.set(gateway.catalog, (keys = new Set(gateway.catalog.tools.map((tool) => `${tool.server}\n${tool.name}`))));
  return keys;
}

/** The status report of the gateway's catalog and config, computed once for each pair (a scrape reads it). */
const reports = new WeakMap<object, { config: object; report: ReturnType<typeof statusReport> }>();
function report(gateway: Gateway): ReturnType<typeof statusReport> {
  const cached = reports.get(gateway.catalog);
  if (cached?.config === gateway.config) return cached.report;
  const fresh = statusReport(gateway.catalog, gateway.config);
  reports.set(gateway.catalog, { config: gateway.config, report: fresh });
  return fresh;
}
