import { PromptListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { boundaryOf } from '../../src/focus/scope.js';
import { cleanupAfterEach, deferred, inMemoryClient, namedToolsApp, notesAndVaultGateway, notesToken } from '../harness/index.js';

/**
 * Who hears that an upstream's prompts (or resources) changed: the sessions that list them. A
 * bearer token's session lists only its modes' servers, and heard every server's list changes
 * (fails on the old main: the token of mode `notes` was told when `vault` added a prompt).
 */

const cleanups = cleanupAfterEach();

/** A server with one tool and one prompt, so it offers prompts before anyone connects. */
function promptingApp(tool: string) {
  const server = namedToolsApp({ [tool]: true });
  server.registerPrompt(`${tool}_help`, { description: `How to ${tool}.` }, () => ({ messages: [] }));
  return server;
}

describe('prompts list_changed: who hears it', () => {
  it('a server outside the token\'s modes changing its prompts tells only sessions that may use it', async () => {
    const notes = promptingApp('read_note');
    const vault = promptingApp('open_vault');
    const gateway = await notesAndVaultGateway(notes, vault, cleanups);
    const adminHeardBoth = deferred();
    const open = (boundary?: ReturnType<typeof notesToken>) => {
      let heard = 0;
      const client = inMemoryClient((t) => gateway.createSession(boundary ? { boundary } : {}).connect(t), {
        name: 'prompts-boundary',
        cleanups,
        prepare: (c) =>
          c.setNotificationHandler(PromptListChangedNotificationSchema, () => {
            heard++;
            if (!boundary && heard === 2) adminHeardBoth.resolve();
          }),
      });
      return { client, heard: () => heard };
    };
    const token = open(notesToken());
    const admin = open();
    const [bounded] = await Promise.all([token.client, admin.client]);
    expect((await bounded.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['read_note_help']);
    vault.registerPrompt('rotate_keys', { description: 'Rotate the root key.' }, () => ({ messages: [] }));
    notes.registerPrompt('summarize_note', { description: 'Summarize a note.' }, () => ({ messages: [] }));
    await adminHeardBoth.promise;
    // The token's session was written to in the same turns; a round trip on its transport flushes it.
    await bounded.ping();
    expect(token.heard()).toBe(1);
    expect((await bounded.listPrompts()).prompts.map((prompt) => prompt.name).sort()).toEqual(['read_note_help', 'summarize_note']);
  });
});

describe('capabilities a token is told of', () => {
  it('are those of the servers its modes reach: no prompts when only a server outside them has prompts', async () => {
    // Before, initialize offered every upstream's: the token of mode `notes` (a server of tools
    // only) was offered prompts it could never list, the vault's.
    const gateway = await notesAndVaultGateway(namedToolsApp({ read_note: true }), promptingApp('open_vault'), cleanups);
    const token = await inMemoryClient((t) => gateway.createSession({ boundary: notesToken() }).connect(t), { name: 'caps-token', cleanups });
    const admin = await inMemoryClient((t) => gateway.createSession({}).connect(t), { name: 'caps-admin', cleanups });
    expect(admin.getServerCapabilities()?.prompts).toBeDefined();
    expect(token.getServerCapabilities()?.prompts).toBeUndefined();
    expect(token.getServerCapabilities()?.tools).toBeDefined();
    expect(token.getServerCapabilities()?.resources).toBeDefined();
  });
});

/** A server with one tool and a resource at `uri` whose text names the server. */
function resourceApp(tool: string, server: string, uri: string) {
  const app = namedToolsApp({ [tool]: true });
  app.registerResource('readme', uri, { description: `${server}'s readme` }, () => ({ contents: [{ uri, text: `${server} readme` }] }));
  return app;
}

describe('resources: a URI two servers list', () => {
  it('a token whose only server lists a URI another server lists first still lists and reads it', async () => {
    // notes is first in rc order, so it owns shared://readme for callers that reach both; a
    // token of mode `vault` reaches only vault, whose own shared://readme was lost to notes's claim
    // (fails before: vault's token listed no resource and read "Resource not found").
    const gateway = await notesAndVaultGateway(resourceApp('read_note', 'notes', 'shared://readme'), resourceApp('open_vault', 'vault', 'shared://readme'), cleanups);
    const session = (boundary?: ReturnType<typeof boundaryOf>) => inMemoryClient((t) => gateway.createSession(boundary ? { boundary } : {}).connect(t), { name: 'shared-uri', cleanups });
    const [vaultToken, notesOnly, admin] = await Promise.all([session(boundaryOf({ tokenModes: ['vault'], tokenLabel: 'v' })), session(notesToken()), session()]);
    const uris = async (client: typeof admin) => (await client.listResources()).resources.filter((resource) => !resource.uri.startsWith('lazytools://')).map((resource) => resource.description);
    const read = async (client: typeof admin) => (await client.readResource({ uri: 'shared://readme' })).contents.map((content) => ('text' in content ? content.text : ''));
    expect(await uris(vaultToken)).toEqual(["vault's readme"]);
    expect(await read(vaultToken)).toEqual(['vault readme']);
    expect(await uris(notesOnly)).toEqual(["notes's readme"]);
    expect(await read(notesOnly)).toEqual(['notes readme']);
    // Without a token the first server in rc order keeps the URI, as before.
    expect(await uris(admin)).toEqual(["notes's readme"]);
    expect(await read(admin)).toEqual(['notes readme']);
  });
});
