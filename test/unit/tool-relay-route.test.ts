import { describe, expect, it, vi } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { clientHints } from '../../src/util/closest.js';
import { cleanupAfterEach, inMemoryClient, inProcessUpstream, namedToolsApp } from '../harness/index.js';

/**
 * A 2025 session's tools/call first asks the fast path (handlers/tools toolRelayRoute) whether it
 * can relay it. On the old code that asked the full permit, which for a name outside the catalog
 * (lazytools' own focus_mode, search_tools, execute_tool) built an unknown-tool refusal with a
 * did-you-mean over every visible tool, then threw it away: every own-tool call paid for it. On
 * 3,000 tools four clients switching modes in a loop held another client's calls from 5 ms to a
 * median of 870 ms (most of the gateway's CPU was that hint). An unknown name built it twice.
 */
const cleanups = cleanupAfterEach();

describe('tools/call routing of a 2025 session', () => {
  it("builds no did-you-mean for lazytools' own tools, and one for an unknown name", async () => {
    const config = resolveConfig({ groups: { notes: { servers: ['app'] } }, modes: { notes: { groups: ['notes'] }, more: { groups: ['notes'] } }, defaultMode: 'notes', strategy: 'hybrid' });
    const gateway = new Gateway({ config, upstreams: [inProcessUpstream('app', namedToolsApp({ read_note: true, delete_note: false }))] });
    await gateway.start();
    cleanups.push(() => gateway.close());
    const client = await inMemoryClient((t) => gateway.createSession({}).connect(t), { name: 'relay-route', cleanups });
    // Counts the "did you mean" hints built (the real method runs): each compares the name with
    // every tool the caller may see, about 10 ms over 3,000 tools.
    const hints = vi.spyOn(clientHints, 'closest');
    cleanups.push(() => hints.mockRestore());
    for (const mode of ['more', 'notes']) expect((await client.callTool({ name: 'focus_mode', arguments: { mode } })).isError).toBeFalsy();
    expect((await client.callTool({ name: 'search_tools', arguments: { query: 'note' } })).isError).toBeFalsy();
    expect((await client.callTool({ name: 'read_note', arguments: {} })).isError).toBeFalsy();
    expect(hints, 'hints built for own tools and a catalog tool').toHaveBeenCalledTimes(0);
    const unknown = await client.callTool({ name: 'read_notes', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain('Did you mean \\"read_note\\"');
    expect(hints, 'hints built for one unknown name').toHaveBeenCalledTimes(1);
  });
});
