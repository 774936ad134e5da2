// Generates a synthetic catalog of N tools shaped like real ones (GitHub-style names, descriptions
// and schemas), deterministic for a given N, for scale benchmarks.
import { readFileSync } from 'node:fs';

const base = JSON.parse(readFileSync(new URL('../test/fixtures/catalogs/github-mcp-server.json', import.meta.url), 'utf8')).servers.github.tools;
const domains = ['billing', 'crm', 'search', 'storage', 'mail', 'chat', 'calendar', 'docs', 'deploy', 'metrics', 'alerts', 'tickets', 'wiki', 'auth', 'queue', 'cache', 'dns', 'cdn', 'ml', 'hr'];

/** `{ servers: { <domain>-<k>: { tools } } }` with `count` tools spread over servers of 100. */
export function generateCatalog(count) {
  const servers = {};
  for (let i = 0; i < count; i++) {
    const template = base[i % base.length];
    const domain = domains[Math.floor(i / base.length) % domains.length];
    const server = `${domain}-${Math.floor(i / 100)}`;
    const tool = {
      ...template,
      name: `${template.name}_${domain}_${i}`,
      description: `${template.description ?? ''} (${domain} variant ${i})`,
    };
    (servers[server] ??= { tools: [] }).tools.push(tool);
  }
  return { servers };
}
