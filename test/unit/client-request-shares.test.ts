import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { boundaryOf } from '../../src/focus/scope.js';
import { MAX_ASKING } from '../../src/upstream/client.js';
import { cleanupAfterEach, EventCounter, inMemoryClient, namedToolsApp, notesAndVaultGateway } from '../harness/index.js';

/**
 * An upstream's questions to clients (elicitation, sampling, roots) wait for answers at most
 * MAX_ASKING at once; one client that never answers held all of them (each waits up to 10
 * minutes), so the upstream's questions for every other client were refused. A holder (a bearer
 * token's sessions, else one session) now holds at most half.
 */

const cleanups = cleanupAfterEach();
const form = (message: string) => ({ mode: 'form' as const, message, requestedSchema: { type: 'object' as const, properties: {} } });

describe('an upstream\'s unanswered questions, shared between clients', () => {
  for (const tokens of [false, true]) {
    it(`a client that never answers holds at most half of them; another client's question still reaches it (${tokens ? 'two bearer tokens' : 'no token'})`, async () => {
      const notes = namedToolsApp({ read_note: true });
      const gateway = await notesAndVaultGateway(notes, namedToolsApp({ open_vault: true }), cleanups);
      const boundary = (label: string) => (tokens ? { boundary: boundaryOf({ tokenModes: ['notes'], tokenLabel: label }) } : {});
      const heldAtA = new EventCounter();
      // Each of notes' questions either reaches the silent client or is refused.
      const seen = new EventCounter();
      const silent = await inMemoryClient((t) => gateway.createSession(boundary('a')).connect(t), {
        cleanups,
        capabilities: { elicitation: {} },
        prepare: (c) => c.setRequestHandler(ElicitRequestSchema, () => (heldAtA.hit(), seen.hit(), new Promise<never>(() => {}))),
      });
      const answering = await inMemoryClient((t) => gateway.createSession(boundary('b')).connect(t), {
        cleanups,
        capabilities: { elicitation: {} },
        prepare: (c) => c.setRequestHandler(ElicitRequestSchema, (request) => ({ action: 'accept', content: { echo: request.params.message } })),
      });
      // The silent client reached notes last: notes' questions with no call in flight go to it.
      await silent.callTool({ name: 'read_note', arguments: {} });
      for (let i = 0; i < MAX_ASKING; i++) notes.server.elicitInput(form(`question ${i}`)).catch(seen.hit);
      await seen.reached(MAX_ASKING);
      await answering.callTool({ name: 'read_note', arguments: {} });
      expect(await notes.server.elicitInput(form('for the answering client'))).toMatchObject({ action: 'accept', content: { echo: 'for the answering client' } });
      expect(heldAtA.count).toBe(MAX_ASKING / 2);
    });
  }
});
