import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { guardRequest, operatorRefusal, type GuardOptions } from '../../src/transports/http-guard.js';

// The guard the HTTP front runs on every request (Host, Origin, then the bearer token via auth.ts).
const PORT = 8080;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const RC_TOKENS = { tokens: [{ label: 'ci', sha256: sha('ci-token'), modes: ['audit'] }] };
const NO_TOKENS = { tokens: [] };
const check = (headers: IncomingHttpHeaders, options: GuardOptions = {}, bound = '127.0.0.1', config: Parameters<typeof guardRequest>[4] = NO_TOKENS) => {
  const guarded = guardRequest(headers, PORT, bound, options, config);
  return 'refusal' in guarded ? guarded.refusal : undefined;
};
const statusOf = (headers: IncomingHttpHeaders, options: GuardOptions = {}, bound = '127.0.0.1') => check(headers, options, bound)?.status ?? 200;

describe('HTTP front: Host header (DNS rebinding)', () => {
  it.each([
    ['127.0.0.1:8080', 200],
    ['localhost:8080', 200],
    ['[::1]:8080', 200],
    ['LOCALHOST:8080', 200],
    ['localhost', 403],
    ['127.0.0.1', 403],
    ['127.0.0.1:9999', 403],
    ['evil.example:8080', 403],
    ['localhost.evil.example:8080', 403],
    ['', 403],
  ])('Host %j on a loopback listener -> %i', (host, status) => {
    expect(statusOf({ host })).toBe(status);
  });

  it('repeats a refused Host or Origin bounded and with its controls blanked (a 16 KiB header was echoed whole, twice)', () => {
    const long = `${'a'.repeat(10_000)}.example:8080`;
    const host = check({ host: long })!.message;
    expect(host).toBe(`Forbidden: Host "${'a'.repeat(199)}…" is not allowed (DNS rebinding protection).`);
    const c1 = check({ host: 'evil\u009b2J.example:8080' })!.message;
    expect(c1).toBe('Forbidden: Host "evil 2j.example:8080" is not allowed (DNS rebinding protection).');
    expect(check({ host: 'localhost:8080', origin: `https://${'o'.repeat(10_000)}` })!.message).toBe(`Forbidden: Origin "https://${'o'.repeat(191)}…" is not allowed`);
    expect(check({ host: 'localhost:8080', origin: 'https://evil\u009b2J.example' })!.message).toBe('Forbidden: Origin "https://evil 2J.example" is not allowed');
  });

  it('refuses a request with no Host header, naming it', () => {
    expect(check({})).toEqual({ status: 403, message: 'Forbidden: the request has no Host header (DNS rebinding protection).' });
    expect(check({ host: 'evil.example:8080' })?.message).toBe(
      'Forbidden: Host "evil.example:8080" is not allowed (DNS rebinding protection). To accept it, start lazytools serve with --allow-host evil.example (any port) or --allow-host evil.example:8080.',
    );
  });

  it.each([
    ['0.0.0.0', '0.0.0.0:8080', 200],
    ['10.0.0.5', '10.0.0.5:8080', 200],
    ['10.0.0.5', '10.0.0.6:8080', 403],
    ['::', '[::]:8080', 200],
    ['::', ':::8080', 403],
    ['10.0.0.5', 'localhost:8080', 200],
  ])('bound to %s, Host %j -> %i', (bound, host, status) => {
    // A non-loopback listener runs with a token; the right one is sent, so only Host decides.
    expect(statusOf({ host, authorization: 'Bearer t' }, { token: 't' }, bound)).toBe(status);
  });

  it('accepts the extra hosts it is given, in any case', () => {
    const options = { allowedHosts: ['Gateway.Internal:8080'] };
    expect(statusOf({ host: 'gateway.internal:8080' }, options)).toBe(200);
    expect(statusOf({ host: 'GATEWAY.INTERNAL:8080' }, options)).toBe(200);
    expect(statusOf({ host: 'gateway.internal:9090' }, options)).toBe(403);
  });
});

describe('HTTP front: Origin header', () => {
  const host = 'localhost:8080';
  it.each([
    [undefined, 200],
    ['http://localhost:6274', 200],
    ['http://127.0.0.1', 200],
    ['https://localhost', 200],
    ['http://[::1]:3000', 200],
    ['https://evil.example', 403],
    ['http://localhost.evil.example', 403],
    ['http://127.0.0.1.evil.example', 403],
    ['null', 403],
    ['not a url', 403],
    ['', 403],
  ])('Origin %j -> %i', (origin, status) => {
    expect(statusOf(origin === undefined ? { host } : { host, origin })).toBe(status);
  });

  it('names the refused Origin', () => {
    expect(check({ host, origin: 'https://evil.example' })).toEqual({ status: 403, message: 'Forbidden: Origin "https://evil.example" is not allowed' });
    expect(check({ host, origin: 'null' })).toEqual({ status: 403, message: 'Forbidden: Origin "null" is not allowed' });
  });

  it('accepts exactly the extra origins it is given', () => {
    const options = { allowedOrigins: ['https://app.example'] };
    expect(statusOf({ host, origin: 'https://app.example' }, options)).toBe(200);
    expect(statusOf({ host, origin: 'https://app.example:8443' }, options)).toBe(403);
    expect(statusOf({ host, origin: 'http://app.example' }, options)).toBe(403);
  });
});

describe('HTTP front: bearer token', () => {
  const host = 'localhost:8080';
  const options = { token: 'sekret' };
  it.each([
    [undefined, 401],
    ['Bearer sekret', 200],
    ['Bearer nope', 401],
    ['Bearer sekret2', 401],
    ['Bearer sekre', 401],
    ['Bearer ', 401],
    ['Basic sekret', 401],
    ['sekret', 401],
  ])('Authorization %j -> %i', (authorization, status) => {
    expect(statusOf(authorization === undefined ? { host } : { host, authorization }, options)).toBe(status);
  });

  it('asks for the token without echoing it', () => {
    expect(check({ host }, options)).toEqual({ status: 401, message: 'Unauthorized: send Authorization: Bearer <token>' });
    const refusal = check({ host, authorization: 'Bearer nope' }, options);
    expect(refusal).toEqual({ status: 401, message: 'Unauthorized: unknown bearer token' });
    expect(JSON.stringify(refusal)).not.toContain('sekret');
    expect(JSON.stringify(refusal)).not.toContain('nope');
  });

  it('grants an rc token its modes, compared by sha256 (the case of the scheme does not matter)', () => {
    const guarded = guardRequest({ host, authorization: 'bearer ci-token' }, PORT, '127.0.0.1', {}, RC_TOKENS);
    expect('access' in guarded && guarded.access).toEqual({ kind: 'modes', grant: RC_TOKENS.tokens[0] });
    expect(check({ host, authorization: 'Bearer ci-token2' }, {}, '127.0.0.1', RC_TOKENS)?.status).toBe(401);
    expect(check({ host }, {}, '127.0.0.1', RC_TOKENS)?.status).toBe(401);
    // The shared token opens everything, next to the rc's tokens.
    expect(guardRequest({ host, authorization: 'Bearer sekret' }, PORT, '127.0.0.1', options, RC_TOKENS)).toEqual({ access: { kind: 'open' } });
  });

  it('needs no token when none is set', () => {
    expect(check({ host, authorization: 'Bearer anything' })).toBeUndefined();
  });
});

describe('HTTP front: order of the checks', () => {
  const options = { token: 'sekret' };
  it.each([
    ['bad Host, good token', { host: 'evil.example:8080', authorization: 'Bearer sekret' }, 403],
    ['bad Host, bad token', { host: 'evil.example:8080' }, 403],
    ['bad Origin, good token', { host: 'localhost:8080', origin: 'https://evil.example', authorization: 'Bearer sekret' }, 403],
    ['bad Origin, bad token', { host: 'localhost:8080', origin: 'https://evil.example' }, 403],
    ['good Host and Origin, bad token', { host: 'localhost:8080', origin: 'http://localhost:1' }, 401],
    ['all good', { host: 'localhost:8080', origin: 'http://localhost:1', authorization: 'Bearer sekret' }, 200],
  ])('%s -> %i', (_case, headers, status) => {
    expect(statusOf(headers, options)).toBe(status);
  });
});

describe('HTTP front: operator endpoints (/readyz, /metrics)', () => {
  const host = { host: '127.0.0.1:8080' };
  const as = (token: string) => ({ ...host, authorization: `Bearer ${token}` });
  const operator = { ...RC_TOKENS, operatorToken: sha('ops-token') };
  const status = (headers: IncomingHttpHeaders, remote: string, options: GuardOptions, config: Parameters<typeof operatorRefusal>[5]) => operatorRefusal(headers, remote, PORT, '127.0.0.1', options, config)?.status ?? 200;

  it('open to the rc operator token or the shared --token, never to a mode token', () => {
    expect(status(as('ops-token'), '10.0.0.9', {}, operator)).toBe(200);
    expect(status(as('shared'), '10.0.0.9', { token: 'shared' }, operator)).toBe(200);
    expect(status(as('ci-token'), '127.0.0.1', {}, operator)).toBe(403);
    expect(status(as('ci-token'), '127.0.0.1', {}, RC_TOKENS)).toBe(403);
    expect(status(as('ci-token'), '127.0.0.1', { token: 'shared' }, RC_TOKENS)).toBe(403);
    expect(status(host, '127.0.0.1', {}, operator)).toBe(401);
    expect(status(as('nope'), '127.0.0.1', { token: 'shared' }, NO_TOKENS)).toBe(401);
  });

  it('on a gateway without tokens, only a connection from this machine reads them', () => {
    for (const remote of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) expect(status(host, remote, {}, NO_TOKENS)).toBe(200);
    for (const remote of ['10.0.0.9', '::ffff:192.168.1.4', 'fe80::1']) expect(status(host, remote, {}, NO_TOKENS)).toBe(403);
    // A gateway that asks for tokens asks for the operator's here, loopback or not (a reverse proxy).
    expect(status(host, '127.0.0.1', {}, RC_TOKENS)).toBe(401);
  });

  it('checks Host and Origin first', () => {
    expect(status({ ...as('ops-token'), host: 'evil.example:8080' }, '127.0.0.1', {}, operator)).toBe(403);
    expect(status({ ...as('ops-token'), origin: 'https://evil.example' }, '127.0.0.1', {}, operator)).toBe(403);
  });
});
