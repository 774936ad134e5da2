import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NeedsSignIn } from '../../src/upstream/auth/needs-sign-in.js';
import { AuthSession } from '../../src/upstream/auth/session.js';
import { readSignIn, writeSignIn } from '../../src/upstream/auth/store.js';

/**
 * What a server's 403 insufficient_scope challenges leave in the sign-in (AuthSession.stepUp).
 * Each challenge's scope joins what is recorded for the next `lazytools auth`; on the old main
 * the record had no bound and was merged in quadratic time, so a server naming 2,000 fresh scopes
 * per answer grew the file by 14 KB a request and, by the 40th, held the gateway's event loop
 * about 6 seconds per request.
 */

function signedIn(): { session: AuthSession; file: string } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'lazytools-step-up-')), 'sign-ins', 'evil.json');
  const url = 'https://mcp.example.test/mcp';
  writeSignIn(file, { version: 1, server: 'evil', url, grant: 'authorization_code', tokens: { access_token: 'held-token-0123456789', token_type: 'Bearer', scope: 'read write' } });
  return { session: new AuthSession('evil', new URL(url), { grant: 'authorization_code' }, file), file };
}

describe('step-up scopes', () => {
  it('are recorded with the held ones, each once', async () => {
    const { session, file } = signedIn();
    await expect(session.stepUp('admin read')).rejects.toBeInstanceOf(NeedsSignIn);
    await expect(session.stepUp('billing admin')).rejects.toThrow('needs sign-in with more access (scope "read write admin billing")');
    expect(readSignIn(file)?.pendingScope).toBe('read write admin billing');
  });

  it('stay bounded whatever the challenges name, keeping the newest ask', async () => {
    const { session, file } = signedIn();
    let n = 0;
    for (let round = 0; round < 40; round++) {
      const scope = Array.from({ length: 2_000 }, () => `scope-${n++}`).join(' ');
      await expect(session.stepUp(scope)).rejects.toBeInstanceOf(NeedsSignIn);
    }
    const pending = readSignIn(file)?.pendingScope ?? '';
    const scopes = pending.split(' ');
    expect(scopes.length).toBeLessThanOrEqual(256);
    expect(pending.length).toBeLessThanOrEqual(8_192);
    expect(scopes.at(-1)).toBe(`scope-${n - 1}`);
  });
});
