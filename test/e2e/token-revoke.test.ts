import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { rcProject, serveHttpGateway, serverEntry } from '../harness/index.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * serve --watch over HTTP: a reload that takes a bearer token's access away ends the 2025
 * sessions opened with it. Before, their requests were refused but the sessions lived on until
 * the idle timeout (30 minutes), their GET streams still hearing what the upstreams of the old
 * modes sent (log lines, list changes, resource updates).
 */
function rc(tokens: Record<string, { sha256: string; modes: readonly string[] }>) {
  return {
    servers: { memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: 'memory.jsonl' } } },
    groups: { notes: { servers: ['memory'] } },
    modes: { notes: { description: 'Knowledge graph notes', groups: ['notes'] }, audit: { description: 'Read the graph', groups: ['notes'], readOnly: true } },
    defaultMode: 'notes',
    ...(Object.keys(tokens).length > 0 ? { auth: { tokens } } : {}),
  };
}

const notes = { sha256: sha256('notes-token'), modes: ['notes'] };
const other = { sha256: sha256('other-token'), modes: ['audit'] };

async function open(url: string, token: string | undefined): Promise<Client> {
  const client = new Client({ name: 'revoke', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

describe('a reload that takes access away ends the sessions that had it', () => {
  for (const [label, before, after, token] of [
    ['a token removed', { notes, other }, { other }, 'notes-token'],
    ['a token whose modes changed', { notes, other }, { notes: { ...notes, modes: ['audit'] }, other }, 'notes-token'],
    ['a token rotated (same label and modes, a new secret)', { notes, other }, { notes: { ...notes, sha256: sha256('new-notes-token') }, other }, 'notes-token'],
    ['tokens added to a gateway that was open', {}, { other }, undefined],
  ] as const) {
    it(label, async () => {
      const { file } = rcProject(rc(before));
      const served = await serveHttpGateway(file, { watch: true });
      // A session whose access the edit keeps (the control).
      const kept = token === undefined ? undefined : await open(served.http!.url, 'other-token');
      const client = await open(served.http!.url, token);
      try {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        expect(served.http!.sessions.size).toBe(kept ? 2 : 1);
        writeFileSync(file, JSON.stringify(rc(after)));
        await vi.waitFor(() => expect(served.gateway.config.tokens.length).toBe(Object.keys(after).length), { timeout: 10_000, interval: 20 });
        await vi.waitFor(() => expect(served.http!.sessions.size).toBe(kept ? 1 : 0), { timeout: 10_000, interval: 20 });
        expect(served.gateway.sessions.size).toBe(kept ? 1 : 0);
        if (kept) expect((await kept.listTools()).tools.length).toBeGreaterThan(0);
      } finally {
        await client.close().catch(() => {});
        await kept?.close().catch(() => {});
        await served.close();
      }
    }, 60_000);
  }
});
