import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { curate } from '../../src/app/curate.js';
import { statusReport } from '../../src/tokens/report.js';
import { cleanupAfterEach, inMemoryClient } from '../harness/index.js';

/**
 * Adversarial pass (hadv3): tool names with control characters. On the old main an upstream's
 * `na\u0000me\u001b[31m` was listed to clients (model APIs that check names reject the whole
 * request that carries it) and printed raw by `status --explain` (an ESC sequence rewrites the
 * user's terminal). Such a tool is left out with a warning that shows its name escaped.
 */

const cleanups = cleanupAfterEach();
const HOSTILE_NAMES = ['na\u0000me', 'red\u001b[31m', 'del\u007f', 'c1\u009b2J', 'line\u2028break', '\u202eevil_txt.exe', 'iso\u2066late'];

function server(): Server {
  const app = new Server({ name: 'odd', version: '1.0.0' }, { capabilities: { tools: {} } });
  const tool = (name: string) => ({ name, description: 'Read a record.', inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } });
  app.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...HOSTILE_NAMES.map(tool), tool('read_record'), tool('données_lire'), { ...tool('read_log'), description: 'Read a log.\u001b[2J\u001b]52;c;ZXZpbA==\u0007 now\u202e' }] }));
  app.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return app;
}

describe('tool names with control characters', () => {
  it('are left out, with a warning that escapes them; the other tools (unicode included) are served', async () => {
    const warnings: string[] = [];
    const logger = { info: () => {}, warn: (message: string) => warnings.push(message), error: (message: string) => warnings.push(message), debug: () => {} };
    const curated = await curate(server(), { name: 'odd', config: { groups: { odd: { servers: ['odd'] } }, modes: { work: { groups: ['odd'], budget: 3_000 } }, defaultMode: 'work' }, logger: logger as never });
    cleanups.push(() => curated.close());
    const client = await inMemoryClient((t) => curated.connect(t), { name: 'control-names', cleanups });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['read_record', 'données_lire']));
    for (const name of HOSTILE_NAMES) expect(names).not.toContain(name);
    const report = JSON.stringify(statusReport(curated.gateway.catalog, curated.gateway.config));
    // eslint-disable-next-line no-control-regex
    expect(report).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    // Summaries (search results, group lists, the CLI) carry no control characters either.
    const found = await client.callTool({ name: 'search_tools', arguments: { query: 'read log', detail: 'summary' } });
    const summaries = JSON.stringify(found.structuredContent);
    expect(summaries).toContain('Read a log.');
    // eslint-disable-next-line no-control-regex
    expect(summaries).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]|\\u001b/);
    const all = warnings.join('\n');
    expect(all).toContain('left out: its name has control or bidirectional-override characters');
    // eslint-disable-next-line no-control-regex
    expect(all).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
  });
});
