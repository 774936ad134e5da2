// `npm start`: serves .lazytoolsrc.example.json over Streamable HTTP on loopback with the real
// reference servers, then prints the per-mode status and how to connect.
import { serve, statusReport } from '../dist/index.js';
import { statusTable } from '../dist/cli/render.js';
import { httpSnippets } from '../dist/cli/snippets.js';

const port = Number(process.env.PORT ?? 8765);
const served = await serve({ config: new URL('../.lazytoolsrc.example.json', import.meta.url).pathname, http: { host: '127.0.0.1', port } });
const url = served.http.url;
const report = statusReport(served.gateway.catalog, served.gateway.config);
console.log(`
lazytools is serving ${served.gateway.catalog.tools.length} tools from ${served.gateway.upstreams.size} servers at ${url}
Fixed modes (a list that never changes per connection): ${url}/<mode>, e.g. ${url}/security_review

${statusTable(report.modes)}

Connect:
${httpSnippets(url, false).map(({ client, snippet }) => `  ${client.padEnd(17)}${snippet}`).join('\n')}
  MCP Inspector    npx @modelcontextprotocol/inspector  (transport "Streamable HTTP", URL ${url})

Press Ctrl+C to stop.`);
const stop = async () => {
  await served.close();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
