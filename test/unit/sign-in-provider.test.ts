import { describe, expect, it } from 'vitest';
import { IssuerNotPinned } from '../../src/upstream/auth/issuer.js';
import { MAX_TOKEN_CHARS, SignInProvider } from '../../src/upstream/auth/provider.js';
import type { SignIn } from '../../src/upstream/auth/store.js';

/**
 * The rc's pre-registered OAuth client is bound to the authorization server it is first used
 * with (the issuer stamp the SDK checks before it sends a client's credentials anywhere): stamped
 * and kept on first use, and a stored stamp is never replaced by the issuer a server names later;
 * or pinned by the rc's `oauth.issuer` from the start, any other refused before anything goes to it.
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

  it('refuses a server that names another authorization server than the stamp, keeping the stamp (the SDK would register there and send the secret)', async () => {
    const signIn = { ...fresh(), client: { client_id: 'ci-bot', issuer: 'https://as.example.test' } };
    const saved: SignIn[] = [];
    const provider = new SignInProvider(signIn, settings, { persist: (s) => void saved.push(structuredClone(s)) });
    const refused = provider.clientInformation({ issuer: 'https://evil.example.test' });
    await expect(refused).rejects.toBeInstanceOf(IssuerNotPinned);
    await expect(refused).rejects.toThrow(
      'server "remote" names the authorization server "https://evil.example.test", but its client credentials are bound to "https://as.example.test", the one they were first used with: they were not sent there. If "https://evil.example.test" is the server\'s authorization server now, set servers.remote.oauth.issuer to it',
    );
    expect((await provider.clientInformation({ issuer: 'https://as.example.test/' }))?.issuer).toBe('https://as.example.test');
    expect(saved).toEqual([]);
  });

  it("keeps no discovery of another authorization server than the rc client's stamp: it is refused next, and nothing may go there later", async () => {
    const signIn = { ...fresh(), client: { client_id: 'ci-bot', issuer: 'https://as.example.test' } };
    const saved: SignIn[] = [];
    const provider = new SignInProvider(signIn, settings, { persist: (s) => void saved.push(structuredClone(s)) });
    const evil = 'https://evil.example.test';
    await provider.saveDiscoveryState({ authorizationServerUrl: evil, authorizationServerMetadata: { issuer: evil, authorization_endpoint: `${evil}/auth`, token_endpoint: `${evil}/token`, response_types_supported: ['code'] } });
    expect(provider.discoveryState()).toBeUndefined();
    expect(saved).toEqual([]);
    // The stamped one's discovery is kept.
    await provider.saveDiscoveryState({ authorizationServerUrl: 'https://as.example.test/' });
    expect(provider.discoveryState()?.authorizationServerUrl).toBe('https://as.example.test/');
  });

  it('with oauth.issuer, stamps the pinned one from the start and refuses any other before anything is sent there', async () => {
    const pinned = { ...settings, issuer: 'https://as.example.test' };
    const saved: SignIn[] = [];
    const provider = new SignInProvider(fresh(), pinned, { persist: (s) => void saved.push(structuredClone(s)) });
    await expect(provider.clientInformation({ issuer: 'https://evil.example.test' })).rejects.toThrow(
      'server "remote" names the authorization server "https://evil.example.test", but its "oauth.issuer" pins "https://as.example.test": its client credentials were not sent there. If "https://evil.example.test" is the server\'s authorization server now, set servers.remote.oauth.issuer to it',
    );
    expect(saved).toEqual([]);
    expect(await provider.clientInformation({ issuer: 'https://as.example.test/' })).toEqual({ client_id: 'ci-bot', client_secret: 'ci-bot-secret', issuer: 'https://as.example.test' });
    expect(saved.at(-1)?.client).toEqual({ client_id: 'ci-bot', issuer: 'https://as.example.test' });
    // Dynamic registration (no clientId) is held to the pin too.
    const registered = new SignInProvider(fresh(), { grant: 'authorization_code', issuer: 'https://as.example.test' }, { persist: () => {} });
    await expect(registered.clientInformation({ issuer: 'https://evil.example.test' })).rejects.toBeInstanceOf(IssuerNotPinned);
  });

  it('with oauth.issuer, a sign-in made with another authorization server is not used: its client, tokens and discovery are left out', async () => {
    const other = 'https://old.example.test';
    const signIn: SignIn = {
      ...fresh(),
      client: { client_id: 'ci-bot', issuer: other },
      tokens: { access_token: 'a', refresh_token: 'r', token_type: 'Bearer', issuer: other },
      discovery: { authorizationServerUrl: other, authorizationServerMetadata: { issuer: other, authorization_endpoint: `${other}/auth`, token_endpoint: `${other}/token`, response_types_supported: ['code'] } },
      expiresAt: 1,
    };
    const pinned = { ...settings, issuer: 'https://as.example.test' };
    const provider = new SignInProvider(signIn, pinned, { persist: () => {} });
    expect(provider.tokens()).toBeUndefined();
    expect(provider.discoveryState()).toBeUndefined();
    expect((await provider.clientInformation({ issuer: 'https://as.example.test' }))?.issuer).toBe('https://as.example.test');
    // A discovery of another authorization server is not kept (the sign-in fails on it next).
    await provider.saveDiscoveryState({ authorizationServerUrl: other, authorizationServerMetadata: signIn.discovery?.authorizationServerMetadata });
    expect(provider.discoveryState()).toBeUndefined();
    // Without the pin the sign-in is used as stored.
    expect(new SignInProvider(signIn, settings, { persist: () => {} }).tokens()?.access_token).toBe('a');
  });

  it('says once, without oauth.issuer, which authorization server on another origin the secret was bound to and how to pin it', async () => {
    const lines: string[] = [];
    const provider = new SignInProvider(fresh(), settings, { persist: () => {}, bound: (line) => lines.push(line) });
    await provider.clientInformation({ issuer: 'https://login.example.test/tenant' });
    await provider.clientInformation({ issuer: 'https://login.example.test/tenant' });
    expect(lines).toEqual([
      'server "remote": its client credentials are bound to the authorization server it names, "https://login.example.test/tenant" (not https://mcp.example.test); if that is the right one, pin it: set servers.remote.oauth.issuer to "https://login.example.test/tenant"',
    ]);
    const quiet: string[] = [];
    // The server's own origin, a pin, or no secret: nothing to say.
    await new SignInProvider(fresh(), settings, { persist: () => {}, bound: (line) => quiet.push(line) }).clientInformation({ issuer: 'https://mcp.example.test/' });
    await new SignInProvider(fresh(), { ...settings, issuer: 'https://login.example.test/tenant' }, { persist: () => {}, bound: (line) => quiet.push(line) }).clientInformation({ issuer: 'https://login.example.test/tenant' });
    await new SignInProvider(fresh(), { grant: 'authorization_code', clientId: 'public' }, { persist: () => {}, bound: (line) => quiet.push(line) }).clientInformation({ issuer: 'https://login.example.test/tenant' });
    expect(quiet).toEqual([]);
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
