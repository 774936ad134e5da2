import { describe, expect, it } from 'vitest';
import type { boundaryOf } from '../../src/focus/scope.js';
import { cleanupAfterEach, inMemoryClient, namedToolsApp, notesAndVaultGateway, notesToken, text } from '../harness/index.js';

/**
 * search_tools says which typed words it read as others ("read "kerbreos" as "kerberos""), and
 * the corrections are made from the catalog's words. Under a bearer token, tools outside its
 * modes do not exist for the caller, so a correction to a word only those tools say must not be
 * named: it told a token of mode `notes` that some server it cannot reach has a tool saying
 * "kerberos" (an oracle for every hidden tool's words; fails before the fix).
 */

const cleanups = cleanupAfterEach();

const search = async (client: Awaited<ReturnType<typeof inMemoryClient>>, query: string) => text(await client.callTool({ name: 'search_tools', arguments: { query } }));

describe('search_tools corrections under a bearer token', () => {
  it('names no correction to a word only tools outside the token\'s modes say, and still names those its own tools say', async () => {
    const gateway = await notesAndVaultGateway(namedToolsApp({ read_notebook: true }), namedToolsApp({ rotate_kerberos: false }), cleanups);
    const session = (boundary?: ReturnType<typeof boundaryOf>) => inMemoryClient((t) => gateway.createSession(boundary ? { boundary } : {}).connect(t), { name: 'spelling-boundary', cleanups });
    const [bounded, admin] = await Promise.all([session(notesToken()), session()]);
    // The control: a caller without a token reads the typo as the vault's word, and is told so.
    expect(await search(admin, 'kerbreos')).toContain('"kerbreos" as "kerberos"');
    const hidden = await search(bounded, 'kerbreos');
    expect(hidden).not.toContain('kerberos');
    expect(hidden).toMatch(/No tools match "kerbreos"/);
    // A word its own mode's tools say is still corrected, and said.
    expect(await search(bounded, 'notebok')).toContain('"notebok" as "notebook"');
  });
});
