import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { boundaryOf } from '../../src/focus/scope.js';
import { Gateway } from '../../src/app/gateway.js';
import { cleanupAfterEach, inMemoryClient, text } from '../harness/index.js';

/**
 * Adversarial pass (hadv3): a mode's `pin` shows a tool outside its groups ("always show this
 * one"). A bearer token's boundary asked only the mode's groups, so for a token mapped to that
 * mode the pinned tool vanished from the list and its calls were "Unknown tool", while the same
 * mode without a token showed and ran it. The boundary is what the token's modes show, pins included.
 */

const cleanups = cleanupAfterEach();
const tools = [
  { name: 'read_note', description: 'Read a note.', inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } },
  { name: 'archive_note', description: 'Archive a note.', inputSchema: { type: 'object' as const } },
  { name: 'purge_notes', description: 'Delete every note.', inputSchema: { type: 'object' as const } },
];

const config = resolveConfig({
  groups: { reading: { tools: ['*read*'] }, archiving: { tools: ['*archive*'] } },
  modes: { notes: { groups: ['reading'], pin: ['notes:archive_note'], budget: 5_000 }, reader: { groups: ['reading'], readOnly: true, pin: ['notes:archive_note'] } },
  defaultMode: 'notes',
  strategy: 'hybrid',
});

async function client(tokenModes: string[] | undefined) {
  const gateway = new Gateway({ config, upstreams: [], locked: [{ server: 'notes', tools }] });
  const session = gateway.createSession(tokenModes ? { boundary: boundaryOf({ tokenModes, tokenLabel: 'ci' }) } : {});
  return inMemoryClient((t) => session.connect(t), { name: 'pin-boundary', cleanups });
}

describe('a mode pin under a token', () => {
  it('the token lists what its mode pins, as the mode does without a token', async () => {
    for (const tokenModes of [undefined, ['notes']]) {
      const names = (await (await client(tokenModes)).listTools()).tools.map((tool) => tool.name);
      expect([tokenModes, names]).toEqual([tokenModes, expect.arrayContaining(['read_note', 'archive_note'])]);
      expect(names).not.toContain('purge_notes');
    }
  });

  it('still refuses what no mode of the token shows, and what a read-only mode pins but may not run', async () => {
    const notes = await client(['notes']);
    const purge = (await notes.callTool({ name: 'execute_tool', arguments: { name: 'purge_notes' } })) as CallToolResult;
    expect(purge.isError).toBe(true);
    expect(text(purge)).toContain('Unknown tool "purge_notes"');
    const reader = await client(['reader']);
    expect((await reader.listTools()).tools.map((tool) => tool.name)).not.toContain('archive_note');
    const archive = (await reader.callTool({ name: 'execute_tool', arguments: { name: 'archive_note' } })) as CallToolResult;
    expect(archive.isError).toBe(true);
  });
});
