import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildCatalog, findTool } from '../../src/catalog/catalog.js';
import { requestCaller } from '../../src/callers/request.js';
import { resolveConfig } from '../../src/config/resolve.js';
import type { RcConfig } from '../../src/config/schema.js';
import { curate, type CuratedServer } from '../../src/app/curate.js';
import { callRefusal, fixedModeGone, modesWith, servedRefusal, switchRefusal, visibleModeNames, withinBoundary, type PolicySubject } from '../../src/focus/policy.js';
import { boundaryOf, resolveScope, type Route } from '../../src/focus/scope.js';
import { ConfigError, UnknownNameError } from '../../src/util/errors.js';
import { cleanupAfterEach, inMemoryClient, text } from '../harness/index.js';

/** The mode rules (focus/policy.ts) hold on every path: names, read-only modes, fixed modes, hiddenTools, tokens. */

const cleanups = cleanupAfterEach();

function notesServer() {
  const app = new McpServer({ name: 'notes', version: '1.0.0' });
  app.registerTool('read_note', { description: 'Read a note.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'a note' }] }));
  app.registerTool('delete_note', { description: 'Delete a note for good.', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'deleted' }] }));
  return app;
}

const notesConfig: RcConfig = {
  groups: { reading: { tools: ['*read*'] }, deleting: { tools: ['*delete*'] } },
  modes: { notes_only: { groups: ['reading'], readOnly: true }, cleanup: { groups: ['reading', 'deleting'] } },
  defaultMode: 'notes_only',
  policy: { hiddenTools: 'reject' },
};

async function session(curated: CuratedServer) {
  let front!: Awaited<ReturnType<CuratedServer['connect']>>;
  const client = await inMemoryClient(async (t) => (front = await curated.connect(t)), { name: 'policy-test', cleanups });
  return { client, front };
}

async function curated(config: RcConfig, mode?: string) {
  const result = await curate(notesServer(), { name: 'notes', config, mode });
  cleanups.push(() => result.close());
  return result;
}

describe('names are looked up, never inherited', () => {
  for (const name of ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__']) {
    it(`defaultMode / extends / focus_mode / --mode "${name}" are unknown modes`, async () => {
      expect(() => resolveConfig({ defaultMode: name })).toThrow(ConfigError);
      expect(() => resolveConfig({ defaultMode: name })).toThrow(/defaultMode: unknown mode/);
      expect(() => resolveConfig({ modes: { x: { extends: name } } })).toThrow(/modes\.x\.extends: unknown mode/);
      const gateway = (await curated({})).gateway;
      expect(() => gateway.createSession({ mode: name })).toThrow(UnknownNameError);
      const { client } = await session(await curated({}));
      const switched = (await client.callTool({ name: 'focus_mode', arguments: { mode: name } })) as CallToolResult;
      expect(switched.isError).toBe(true);
      expect(text(switched)).toContain(`Unknown mode "${name}"`);
      const group = (await client.callTool({ name: 'focus_mode', arguments: { enable_group: name } })) as CallToolResult;
      expect(group.isError).toBe(true);
    });
  }

  it('a mode named "constructor" is a mode like any other', async () => {
    const config = resolveConfig({ groups: { g: { tools: ['*'] } }, modes: { constructor: { groups: ['g'] }, toString: { groups: ['g'], readOnly: true } }, defaultMode: 'constructor' });
    expect(Object.keys(config.modes)).toContain('constructor');
    const own = (name: string) => (Object.getOwnPropertyDescriptor(config.modes, name)?.value as { groups: string[]; readOnly: boolean } | undefined);
    expect(own('constructor')?.groups).toEqual(['g']);
    expect(own('toString')?.readOnly).toBe(true);
    const { client } = await session(await curated({ groups: { g: { tools: ['*'] } }, modes: { constructor: { groups: ['g'] } }, defaultMode: 'constructor' }));
    const status = (await client.callTool({ name: 'focus_mode', arguments: { status: true } })) as CallToolResult;
    expect((status.structuredContent as { mode: string }).mode).toBe('constructor');
  });
});

describe('hiddenTools "reject": search shows, but does not enable or run', () => {
  it('search_tools with enable: true leaves the hidden tool refused, directly and through execute_tool', async () => {
    const { client } = await session(await curated({ ...notesConfig, defaultMode: 'cleanup', modes: { ...notesConfig.modes, reader: { groups: ['reading'] } } }));
    await client.callTool({ name: 'focus_mode', arguments: { mode: 'reader' } });
    const found = (await client.callTool({ name: 'search_tools', arguments: { query: 'delete note', enable: true } })) as CallToolResult;
    expect(JSON.stringify(found.structuredContent)).toContain('delete_note');
    expect((found.structuredContent as { enabled: boolean }).enabled).toBe(false);
    expect(text(found)).toContain('switch with focus_mode');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('delete_note');
    const direct = (await client.callTool({ name: 'delete_note', arguments: {} })) as CallToolResult;
    expect(direct.isError).toBe(true);
    expect(text(direct)).toContain('rejects hidden tools');
    const executed = (await client.callTool({ name: 'execute_tool', arguments: { name: 'delete_note', arguments: {} } })) as CallToolResult;
    expect(executed.isError).toBe(true);
    expect(text(executed)).toContain('rejects hidden tools');
    // A mode switch is the way to reach it.
    await client.callTool({ name: 'focus_mode', arguments: { mode: 'cleanup' } });
    expect(text(await client.callTool({ name: 'delete_note', arguments: {} }))).toBe('deleted');
  });
});

describe('read-only modes: search offers readers only, and says so when only writers match', () => {
  it('a query only writers match names them and the way to a mode that runs them, instead of "No tools match"', async () => {
    const { client } = await session(await curated({ ...notesConfig, policy: {} }));
    const found = (await client.callTool({ name: 'search_tools', arguments: { query: 'delete' } })) as CallToolResult;
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as { tools: unknown[] }).tools).toEqual([]);
    expect(text(found)).toMatch(/^No tool mode "notes_only" offers matches "delete": the mode is read-only, and the tools that match may write \(delete_note\)\. Switch with focus_mode to a mode that includes them \(cleanup[,)]/);
    const fixed = await session(await curated({ ...notesConfig, policy: {} }, 'notes_only'));
    const there = (await fixed.client.callTool({ name: 'search_tools', arguments: { query: 'delete' } })) as CallToolResult;
    expect(text(there)).toBe('No tool mode "notes_only" offers matches "delete": the mode is read-only, and the tools that match may write (delete_note). This endpoint serves only mode "notes_only".');
    expect(text(await client.callTool({ name: 'search_tools', arguments: { query: 'zorbify' } }))).toBe('No tools match "zorbify".');
  });

  it('a query a listed reader and a writer match names the writer and its modes, not only the reader', async () => {
    const { client } = await session(await curated({ ...notesConfig, policy: {} }));
    const found = (await client.callTool({ name: 'search_tools', arguments: { query: 'delete note' } })) as CallToolResult;
    expect((found.structuredContent as { tools: unknown[]; inList: string[] }).inList).toEqual(['read_note']);
    expect(text(found)).toMatch(
      /^Only tools already in your list match "delete note": read_note\. Mode "notes_only" is read-only, and tools that may write match better \(delete_note\)\. Switch with focus_mode to a mode that includes them \(cleanup[,)]/,
    );
    const fixed = await session(await curated({ ...notesConfig, policy: {} }, 'notes_only'));
    const there = (await fixed.client.callTool({ name: 'search_tools', arguments: { query: 'delete note' } })) as CallToolResult;
    expect(text(there)).toBe(
      'Only tools already in your list match "delete note": read_note. Mode "notes_only" is read-only, and tools that may write match better (delete_note). This endpoint serves only mode "notes_only".',
    );
    // A query only the listed reader matches says nothing of writers.
    expect(text(await client.callTool({ name: 'search_tools', arguments: { query: 'read note' } }))).toBe('Only tools already in your list match "read note": read_note.');
  });
});

describe('fixed modes', () => {
  it('search_tools on a fixed mode says what is true of outside tools: callable unless hiddenTools rejects them', async () => {
    const modes = { ...notesConfig.modes, reader: { groups: ['reading'] } };
    const open = await session(await curated({ ...notesConfig, modes, policy: { hiddenTools: 'allow' } }, 'reader'));
    const found = (await open.client.callTool({ name: 'search_tools', arguments: { query: 'delete note' } })) as CallToolResult;
    expect(JSON.stringify(found.structuredContent)).toContain('delete_note');
    expect(text(found)).not.toContain('cannot be');
    expect(text(found)).toMatch(/does not change; call one (by its name|with execute_tool)/);
    expect(text(await open.client.callTool({ name: 'delete_note', arguments: {} }))).toBe('deleted');
    const strict = await session(await curated({ ...notesConfig, modes }, 'reader'));
    const refused = (await strict.client.callTool({ name: 'search_tools', arguments: { query: 'delete note' } })) as CallToolResult;
    expect(text(refused)).toContain('cannot be added or called here');
  });

  it('a refusal on a fixed mode does not suggest focus_mode, which is not there', async () => {
    const { client } = await session(await curated(notesConfig, 'notes_only'));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('focus_mode');
    const refused = (await client.callTool({ name: 'execute_tool', arguments: { name: 'delete_note', arguments: {} } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(text(refused)).not.toContain('focus_mode');
    expect(text(refused)).toContain('serves only mode "notes_only"');
  });

  it('a reload that removes the fixed mode ends the session; it never falls back to another mode', async () => {
    const server = await curated(notesConfig, 'notes_only');
    const { client, front } = await session(server);
    const closed = new Promise<void>((resolve) => (client.onclose = () => resolve()));
    const { notes_only: _gone, ...rest } = notesConfig.modes ?? {};
    await server.gateway.reload(resolveConfig({ ...notesConfig, modes: { ...rest, notes_read: { groups: ['reading'], readOnly: true } }, defaultMode: 'cleanup' }));
    await closed;
    expect(front.endReason).toMatch(/mode "notes_only" is no longer in the config/);
    expect(server.gateway.sessions.size).toBe(0);
  });

  it('a switchable session whose mode disappears returns to the default mode', async () => {
    const server = await curated({ ...notesConfig, policy: {} });
    const { client, front } = await session(server);
    await client.callTool({ name: 'focus_mode', arguments: { mode: 'cleanup' } });
    await server.gateway.reload(resolveConfig({ ...notesConfig, modes: { notes_only: { groups: ['reading'], readOnly: true } } }));
    expect(front.mode).toBe('notes_only');
  });
});

describe('exposed names are unique', () => {
  it('a literal name equal to another tool\'s prefixed name is itself prefixed', () => {
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });
    const sources = [
      { server: 'filesystem', tools: [tool('write_file'), tool('read_file')] },
      { server: 'other', tools: [tool('write_file')] },
      { server: 'evil', tools: [tool('filesystem_write_file')] },
    ];
    const { catalog } = buildCatalog(sources, resolveConfig({}));
    const names = catalog.tools.map((t) => t.exposedName);
    expect(new Set(names).size).toBe(names.length);
    expect(catalog.byName.get('filesystem_write_file')?.server).toBe('filesystem');
    expect(catalog.byName.get('evil_filesystem_write_file')?.server).toBe('evil');
  });

  it('whatever still collides is left out with a warning, never listed twice', () => {
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });
    const { catalog, warnings } = buildCatalog(
      [
        { server: 'a', tools: [tool('b_c')] },
        { server: 'a_b', tools: [tool('c')] },
      ],
      resolveConfig({ prefix: 'always' }),
    );
    expect(catalog.tools.map((t) => t.exposedName)).toEqual(['a_b_c']);
    expect(warnings.join('\n')).toContain('left out');
  });
});

describe('the boundary of a request or session', () => {
  const config = resolveConfig(notesConfig);
  const tools = [
    { name: 'read_note', description: 'Read a note.', inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } },
    { name: 'delete_note', description: 'Delete a note for good.', inputSchema: { type: 'object' as const } },
  ];
  const { catalog } = buildCatalog([{ server: 'notes', tools }], config);
  const tool = (name: string) => catalog.byName.get(name)!;

  it('narrows the fixed mode by the token\'s modes; without a token nothing is hidden', () => {
    expect(boundaryOf({ tokenModes: ['notes_only', 'cleanup'], tokenLabel: 'ci' })).toEqual({ modes: ['notes_only', 'cleanup'], token: true, label: 'ci' });
    expect(boundaryOf({ endpoint: 'cleanup', tokenModes: ['notes_only', 'cleanup'] }).modes).toEqual(['cleanup']);
    expect(boundaryOf({ served: ['cleanup'] })).toEqual({ modes: ['cleanup'], token: false, label: undefined });
    expect(withinBoundary(config, boundaryOf({ served: ['notes_only'] }), tool('delete_note'))).toBe(true);
  });

  it('a token sees only what one of its modes shows (read-only rules included), and only its modes', () => {
    const readOnly = boundaryOf({ tokenModes: ['notes_only'] });
    expect(withinBoundary(config, readOnly, tool('read_note'))).toBe(true);
    expect(withinBoundary(config, readOnly, tool('delete_note'))).toBe(false);
    expect(withinBoundary(config, boundaryOf({ tokenModes: ['notes_only', 'cleanup'] }), tool('delete_note'))).toBe(true);
    expect(visibleModeNames(config, readOnly)).toEqual(['notes_only']);
    // A token's caller may switch (among its modes: focus_mode names and accepts only those); a fixed mode never.
    expect(switchRefusal({ fixedMode: undefined })).toBeUndefined();
    expect(switchRefusal({ fixedMode: 'notes_only' })).toContain('fixed mode "notes_only" only');
    const subject = { mode: 'notes_only', fixedMode: undefined, inMode: () => true, boundary: readOnly };
    expect(callRefusal(config, subject, tool('delete_note'))).toBe('Unknown tool "delete_note". Use search_tools to find tools.');
  });
});

/**
 * The refusal texts, one table per rule: each row is a caller (a switchable 2025 session, a fixed
 * endpoint, a 2026-07-28 request, a bearer token) and the exact text the rule gives it.
 */
describe('refusal texts, one table per policy rule', () => {
  const config = resolveConfig(notesConfig);
  const open = resolveConfig({ ...notesConfig, policy: {} });
  const tools = [
    { name: 'read_note', description: 'Read a note.', inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } },
    { name: 'delete_note', description: 'Delete a note for good.', inputSchema: { type: 'object' as const } },
  ];
  const { catalog } = buildCatalog([{ server: 'notes', tools }], config);
  const deleteNote = catalog.byName.get('delete_note')!;
  const caller = (mode: string, extra: Partial<PolicySubject> = {}): PolicySubject => ({ mode, fixedMode: undefined, inMode: () => false, ...extra });
  const writes = 'Mode "notes_only" is read-only and "delete_note" may write (it is not annotated readOnlyHint: true, and its name or description does not show it only reads).';
  // The modes whose groups include the tool: cleanup, and the presets that place it.
  const others = modesWith(config, deleteNote).join(', ');

  it.each([
    ['a switchable session', caller('notes_only'), `${writes} Modes that include it: ${others} (switch with focus_mode).`],
    ['a fixed endpoint', caller('notes_only', { fixedMode: 'notes_only' }), `${writes} This endpoint serves only mode "notes_only".`],
    ['a 2026-07-28 request', caller('notes_only', { stateless: true }), `${writes} Modes that include it: ${others} (ask focus_mode how to reach one).`],
    ['a token of the read-only mode only', caller('notes_only', { boundary: boundaryOf({ tokenModes: ['notes_only', 'cleanup'] }), inMode: () => true }), `${writes} Modes that include it: cleanup (switch with focus_mode).`],
  ])('read-only mode, %s', (_who, subject, expected) => {
    expect(callRefusal(open, subject, deleteNote)).toBe(expected);
  });

  it.each([
    ['a switchable session', caller('reader'), `"delete_note" is not part of mode "reader" and this gateway rejects hidden tools. Modes that include it: ${others} (switch with focus_mode).`],
    ['a fixed endpoint', caller('reader', { fixedMode: 'reader' }), '"delete_note" is not part of mode "reader" and this gateway rejects hidden tools. This endpoint serves only mode "reader".'],
    ['a 2026-07-28 request', caller('reader', { stateless: true }), `"delete_note" is not part of mode "reader" and this gateway rejects hidden tools. Modes that include it: ${others} (ask focus_mode how to reach one).`],
  ])('hiddenTools "reject", %s', (_who, subject, expected) => {
    const rejecting = resolveConfig({ ...notesConfig, modes: { ...notesConfig.modes, reader: { groups: ['reading'] } } });
    expect(callRefusal(rejecting, subject, deleteNote)).toBe(expected);
  });

  it.each([
    ['outside the token\'s modes', caller('notes_only', { boundary: boundaryOf({ tokenModes: ['notes_only'] }) }), 'Unknown tool "delete_note". Use search_tools to find tools.'],
    [
      'in another mode of a token of several',
      caller('reader', { boundary: boundaryOf({ tokenModes: ['reader', 'cleanup'] }) }),
      '"delete_note" is not part of mode "reader", the only tools this bearer token may run there. Switch with focus_mode to another mode of this token that includes it.',
    ],
    ['in another mode, the token\'s mode fixed', caller('reader', { fixedMode: 'reader', boundary: boundaryOf({ tokenModes: ['reader', 'cleanup'] }) }), '"delete_note" is not part of mode "reader", the only tools this bearer token may run there.'],
  ])('bearer token, %s', (_who, subject, expected) => {
    const tokens = resolveConfig({ ...notesConfig, policy: {}, modes: { ...notesConfig.modes, reader: { groups: ['reading'] } } });
    expect(callRefusal(tokens, subject, deleteNote)).toBe(expected);
  });

  it.each([
    ['a mode gone after a reload', () => callRefusal(config, caller('gone'), deleteNote), 'Mode "gone" no longer exists; "delete_note" is not available.'],
    ['focus_mode on a fixed endpoint', () => switchRefusal({ fixedMode: 'notes_only' }), 'This endpoint serves the fixed mode "notes_only" only; modes and groups cannot be changed here.'],
    ['a mode serve --mode does not serve', () => servedRefusal(config, 'cleanup', ['notes_only'], undefined), 'This gateway serves only mode(s) notes_only; "cleanup" is not one of them.'],
    ['an unknown mode', () => servedRefusal(config, 'nope', undefined, ['notes_only']), 'Unknown mode "nope". Modes: notes_only.'],
    ['a fixed connection whose mode left the config', () => fixedModeGone(config, ['gone']), 'mode "gone" is no longer in the config; this connection served only that mode and was closed'],
  ])('mode and endpoint, %s', (_what, refusal, expected) => {
    expect(refusal()).toBe(expected);
  });
});

describe("execute_tool's mode: a call in the mode focus_mode named, statelessly, within the caller's boundary", () => {
  it('runs a tool under the named mode\'s rules, and refuses a mode the caller may not use', async () => {
    const { client, front } = await session(await curated(notesConfig));
    // notes_only is read-only and hiddenTools rejects: in its own mode delete_note is refused.
    expect(((await client.callTool({ name: 'execute_tool', arguments: { name: 'delete_note', arguments: {} } })) as CallToolResult).isError).toBe(true);
    const named = (await client.callTool({ name: 'execute_tool', arguments: { name: 'delete_note', arguments: {}, mode: 'cleanup' } })) as CallToolResult;
    expect(text(named)).toBe('deleted');
    // Nothing switched.
    expect(front.mode).toBe('notes_only');
    const unknown = (await client.callTool({ name: 'execute_tool', arguments: { name: 'delete_note', arguments: {}, mode: 'nope' } })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/^execute_tool: Unknown mode "nope"/);
    const fixed = await session(await curated(notesConfig, 'notes_only'));
    const away = (await fixed.client.callTool({ name: 'execute_tool', arguments: { name: 'delete_note', arguments: {}, mode: 'cleanup' } })) as CallToolResult;
    expect(text(away)).toBe('execute_tool: This endpoint serves the fixed mode "notes_only" only; modes and groups cannot be changed here.');
  });
});

describe('refusal texts are bounded whatever the rc holds (a tool in thousands of modes, thousands of modes)', () => {
  // 3,000 modes that all include delete_note, one read-only mode that refuses it.
  const many = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`cleanup_${String(i).padStart(4, '0')}`, { groups: ['deleting'] }]));
  const rc: RcConfig = { ...notesConfig, policy: {}, modes: { ...notesConfig.modes, ...many }, variants: { enabled: true } };
  const config = resolveConfig(rc);
  const { catalog } = buildCatalog([{ server: 'notes', tools: [{ name: 'delete_note', description: 'Delete a note for good.', inputSchema: { type: 'object' as const } }] }], config);
  const deleteNote = catalog.byName.get('delete_note')!;
  const BOUND = 3_000;

  it('a read-only refusal names some of the modes that include the tool, and how many more', () => {
    const refusal = callRefusal(config, { mode: 'notes_only', fixedMode: undefined, inMode: () => false }, deleteNote) ?? '';
    expect(refusal.length).toBeLessThanOrEqual(BOUND);
    expect(refusal).toMatch(/Modes that include it: .*cleanup_0000, .* and \d+ more \(switch with focus_mode\)\.$/);
  });

  it('an unknown mode (an HTTP path, a request\'s mode) is echoed on one line, cut, with some of the modes', () => {
    const refusal = servedRefusal(config, `nope\n${'x'.repeat(20_000)}`, undefined, undefined) ?? '';
    expect(refusal.length).toBeLessThanOrEqual(BOUND);
    expect(refusal).not.toContain('\n');
    expect(refusal).toMatch(/^Unknown mode "nope\\u000axxx.*\[name cut by lazytools at 200 characters\]"\. Modes: .*cleanup_0000, .* and \d+ more\.$/);
  });

  it('an unknown server variant names some of the variants, and how many more', () => {
    const scope = resolveScope(config, {}, { era: 'modern', variant: '😀'.repeat(40) });
    const refusal = 'refusal' in scope ? scope.refusal : '';
    expect(refusal.length).toBeLessThanOrEqual(BOUND);
    expect(refusal).toMatch(/^Unknown server variant "(😀){39}…\. Variants: .*cleanup_0000, .* and \d+ more\.$/u);
    // The echo is cut at a whole character: no half emoji.
    expect(refusal).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('2026-07-28 requests under hiddenTools "reject" or a token', () => {
  it('share the visible set of their scope (mode and boundary) instead of computing it over the catalog per call; other scopes keep their own', async () => {
    const gateway = (await curated({ ...notesConfig, modes: { ...notesConfig.modes, reading_rw: { groups: ['reading'] } } })).gateway;
    const request = (route: Route) => requestCaller(gateway, route);
    const deleteNote = findTool(gateway.catalog, 'delete_note')!;
    expect(request({ endpoint: 'cleanup' }).refusal(deleteNote)).toBeUndefined();
    expect(request({ endpoint: 'reading_rw' }).refusal(deleteNote)).toMatch(/^"delete_note" is not part of mode "reading_rw" and this gateway rejects hidden tools/);
    expect(request({ endpoint: 'cleanup' }).modeTools()).toBe(request({ endpoint: 'cleanup' }).modeTools());
    expect(request({ endpoint: 'cleanup' }).modeTools()).not.toBe(request({ endpoint: 'reading_rw' }).modeTools());
    const token = { tokenModes: ['reading_rw'], tokenLabel: 'ci' };
    expect(request(token).modeTools()).toBe(request(token).modeTools());
    expect(request(token).modeTools()).not.toBe(request({ endpoint: 'reading_rw' }).modeTools());
    expect(request(token).refusal(deleteNote)).toBe('Unknown tool "delete_note". Use search_tools to find tools.');
    expect(request({ endpoint: 'cleanup' }).refusal(deleteNote)).toBeUndefined();
  });
});
