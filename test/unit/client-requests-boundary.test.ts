import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, inMemoryClient, namedToolsApp, notesAndVaultGateway, notesToken } from '../harness/index.js';

/**
 * A client with roots gives them to the running upstreams no session reached yet, and becomes
 * theirs (offerRoots): under a bearer token, only the upstreams its modes reach. A token of mode
 * `notes` handed its roots to the `vault` server and became the session vault's own requests went
 * to, so vault's elicitation reached a client that may not use vault (fails on the old main).
 */

const cleanups = cleanupAfterEach();

describe('roots and server requests under a bearer token', () => {
  it('the token\'s roots and its client reach only the servers of its modes', async () => {
    const notes = namedToolsApp({ read_note: true });
    const vault = namedToolsApp({ open_vault: true });
    const gateway = await notesAndVaultGateway(notes, vault, cleanups);
    const asked: string[] = [];
    const client = await inMemoryClient((t) => gateway.createSession({ boundary: notesToken() }).connect(t), {
      name: 'client-requests-boundary',
      cleanups,
      capabilities: { roots: { listChanged: true }, elicitation: {} },
      prepare: (c) => {
        c.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///home/ci/private', name: 'private' }] }));
        c.setRequestHandler(ElicitRequestSchema, (request) => {
          asked.push(request.params.message);
          return { action: 'decline' };
        });
      },
    });
    // The control: the token's own server gets its roots.
    await client.ping();
    expect((await notes.server.listRoots()).roots.map((root) => root.uri)).toEqual(['file:///home/ci/private']);
    expect((await vault.server.listRoots()).roots).toEqual([]);
    await expect(vault.server.elicitInput({ mode: 'form', message: 'vault: confirm the transfer', requestedSchema: { type: 'object', properties: {} } })).rejects.toThrow();
    expect(asked).toEqual([]);
  });
});
