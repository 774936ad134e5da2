import { describe, expect, it } from 'vitest';
import { pinHolds, sameIssuer, usableSignIn } from '../../src/upstream/auth/issuer.js';
import { SignInProvider } from '../../src/upstream/auth/provider.js';
import type { SignIn } from '../../src/upstream/auth/store.js';

/**
 * The rc's `oauth.issuer` pin and the authorization server's issuer are compared in one canonical
 * form (scheme and host lower-cased, the default port dropped, a trailing `/` tolerated), the path
 * as written: a pin spelled `https://Auth.Example.com` or `https://auth.example.com:443` named the
 * real server `https://auth.example.com` and refused it (its sign-in was never used).
 */

const real = 'https://auth.example.com';

describe('sameIssuer', () => {
  it('takes one authorization server however its scheme, host and default port are spelled', () => {
    for (const pin of ['https://Auth.Example.com', 'https://auth.example.com:443', 'HTTPS://AUTH.EXAMPLE.COM:443/', 'https://auth.example.com/']) {
      expect(sameIssuer(pin, real), pin).toBe(true);
      expect(sameIssuer(real, pin), pin).toBe(true);
      expect(sameIssuer(pin, `${real}/`), pin).toBe(true);
    }
    expect(sameIssuer('http://LOCALHOST:80/tenant', 'http://localhost/tenant/')).toBe(true);
    expect(sameIssuer('https://auth.example.com:443/tenant-a', 'https://Auth.Example.com/tenant-a')).toBe(true);
  });

  it('keeps another origin, port, user name or path (case included) another server', () => {
    expect(sameIssuer('https://auth.example.com/tenant-a', 'https://auth.example.com/tenant-b')).toBe(false);
    expect(sameIssuer('https://auth.example.com/Tenant-A', 'https://auth.example.com/tenant-a')).toBe(false);
    expect(sameIssuer('https://auth.example.com.evil.test', real)).toBe(false);
    expect(sameIssuer('https://auth.example.com:8443', real)).toBe(false);
    expect(sameIssuer('http://auth.example.com', real)).toBe(false);
    expect(sameIssuer('https://user@auth.example.com', real)).toBe(false);
    expect(sameIssuer('https://auth.example.com/tenant-a', real)).toBe(false);
    expect(sameIssuer('https://auth.example.com//', real)).toBe(false);
    // No URL: compared as written.
    expect(sameIssuer('not a url', 'not a url/')).toBe(true);
    expect(sameIssuer('Not A Url', 'not a url')).toBe(false);
  });
});

describe('the rc pin spelled another way', () => {
  it("uses a sign-in made with the pinned server, as the SDK stamps it (String(new URL()))", async () => {
    const stamp = `${real}/`;
    const signIn: SignIn = {
      version: 1,
      server: 'remote',
      url: 'https://mcp.example.test/mcp',
      grant: 'client_credentials',
      client: { client_id: 'ci-bot', issuer: stamp },
      tokens: { access_token: 'a', token_type: 'Bearer', issuer: stamp },
      discovery: { authorizationServerUrl: stamp, authorizationServerMetadata: { issuer: real, authorization_endpoint: `${real}/auth`, token_endpoint: `${real}/token`, response_types_supported: ['code'] } },
    };
    for (const pin of ['https://Auth.Example.com', 'https://auth.example.com:443']) {
      const settings = { grant: 'client_credentials' as const, clientId: 'ci-bot', clientSecret: 'ci-bot-secret', issuer: pin };
      expect(pinHolds(signIn, pin), pin).toBe(true);
      expect(usableSignIn(signIn, settings), pin).toBe(true);
      const provider = new SignInProvider(structuredClone(signIn), settings, { persist: () => {} });
      expect(provider.tokens()?.access_token, pin).toBe('a');
      expect((await provider.clientInformation({ issuer: stamp }))?.client_id, pin).toBe('ci-bot');
      await provider.saveDiscoveryState({ authorizationServerUrl: stamp });
      expect(provider.discoveryState()?.authorizationServerUrl, pin).toBe(stamp);
    }
    expect(usableSignIn(signIn, { grant: 'client_credentials', clientId: 'ci-bot', issuer: 'https://auth.example.com/tenant-a' })).toBe(false);
  });
});
