import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_CHARS, SignInProvider } from '../../src/upstream/auth/provider.js';
import type { SignIn } from '../../src/upstream/auth/store.js';

/**
 * The rc's pre-registered OAuth client is bound to the authorization server it is first used
 * with (the issuer stamp the SDK checks before it sends a client's credentials anywhere): stamped
 * and kept on first use, and a stored stamp is never replaced by the issuer a server names later.
 */

const settings = { grant: 'client_credentials' as const, clientId: 'ci-bot', clientSecret: 'ci-bot-secret' };
const fresh = (): SignIn => ({ version: 1, server: 'remote', url: 'https://mcp.example.test/mcp', grant: 'client_credentials' });

describe('SignInProvider', () => {
  it("stamps the rc's client with the issuer of its first use and keeps the stamp, never the secret", async () => {
    const saved: SignIn[] = [];
    const provider = new SignInProvider(fresh(), settings, { persist: (signIn) => void saved.push(structuredClone(signIn)) });
    expect(await provider.clientInformation({ issuer: 'https://as.example.test' })).toEqual({ client_id: 'ci-bot', client_secret: 'ci-bot-secret', issuer: 'https://as.example.test' });
    expect(saved.at(-1)?.client).toEqual({ client_id: 'ci-bot', issuer: 'https://as.example.test' });
  });

  it('keeps the stored stamp when a server names another authorization server (the SDK then withholds the client)', async () => {
    const signIn = { ...fresh(), client: { client_id: 'ci-bot', issuer: 'https://as.example.test' } };
    const saved: SignIn[] = [];
    const provider = new SignInProvider(signIn, settings, { persist: (s) => void saved.push(structuredClone(s)) });
    expect((await provider.clientInformation({ issuer: 'https://evil.example.test' }))?.issuer).toBe('https://as.example.test');
    expect(saved).toEqual([]);
  });

  it('refuses a token longer than 64 KiB from the authorization server, keeping the sign-in as it was', async () => {
    const saved: SignIn[] = [];
    const provider = new SignInProvider(fresh(), settings, { persist: (signIn) => void saved.push(structuredClone(signIn)) });
    await expect(provider.saveTokens({ access_token: 'x'.repeat(MAX_TOKEN_CHARS + 1), token_type: 'Bearer' })).rejects.toThrow(/access_token is 65,537 characters; at most 65,536/);
    await expect(provider.saveTokens({ access_token: 'a', refresh_token: 'r'.repeat(10_000_000), token_type: 'Bearer' })).rejects.toThrow(/refresh_token/);
    expect(saved).toEqual([]);
    expect(provider.tokens()).toBeUndefined();
    await provider.saveTokens({ access_token: 'y'.repeat(MAX_TOKEN_CHARS), token_type: 'Bearer' });
    expect(provider.tokens()?.access_token).toHaveLength(MAX_TOKEN_CHARS);
  });
});
