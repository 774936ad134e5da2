import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { resolveScope, type Route } from '../../src/focus/scope.js';
import { accessFor } from '../../src/transports/auth.js';
import { variantsExtension } from '../../src/callers/variants.js';
import { claimsEnvelope, classifyEra } from '../../src/protocol/era.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const config = resolveConfig(
  parseConfig({
    variants: { enabled: true, modes: ['development', 'security_review', 'debugging'] },
    auth: { tokens: { ci: { sha256: sha('ci-token'), modes: ['security_review'] }, ops: { sha256: sha('ops-token').toUpperCase(), modes: ['debugging', 'development'] } } },
  }),
  '/repo/.lazytoolsrc.json',
);

/** A 2026-07-28 request's scope from its route and variant (focus/scope resolveScope). */
function requestMode(resolved: Parameters<typeof resolveScope>[0], request: Route & { variant?: unknown }) {
  const { variant, ...route } = request;
  return resolveScope(resolved, route, { era: 'modern', variant });
}

describe('a 2026-07-28 request\'s scope (focus/scope resolveScope)', () => {
  it('takes the variant, else the endpoint, else the token, else the default mode; any of endpoint, served modes or token fixes it', () => {
    expect(requestMode(config, {})).toMatchObject({ mode: 'development', fixedMode: undefined, boundary: { token: false } });
    expect(requestMode(config, { variant: 'debugging' })).toMatchObject({ mode: 'debugging', fixedMode: undefined });
    expect(requestMode(config, { endpoint: 'code_review' })).toMatchObject({ mode: 'code_review', fixedMode: 'code_review', boundary: { token: false } });
    expect(requestMode(config, { tokenModes: ['security_review'] })).toMatchObject({ mode: 'security_review', fixedMode: 'security_review', boundary: { token: true } });
    expect(requestMode(config, { served: ['debugging', 'security_review'], tokenModes: ['security_review'] })).toMatchObject({ mode: 'security_review' });
  });

  it('never widens a token or an endpoint, and refuses forged variants by name', () => {
    const refusal = (request: Parameters<typeof requestMode>[1]) => {
      const resolved = requestMode(config, request);
      return 'refusal' in resolved ? resolved.refusal : undefined;
    };
    expect(refusal({ tokenModes: ['security_review'], tokenLabel: 'ci', variant: 'development' })).toBe('The bearer token "ci" may use mode(s) security_review only, not "development".');
    expect(refusal({ tokenModes: ['security_review'], endpoint: 'all' })).toContain('may use mode(s) security_review only');
    expect(refusal({ endpoint: 'debugging', variant: 'development' })).toContain('serves mode "debugging" only');
    expect(refusal({ served: ['debugging'], variant: 'development' })).toContain('serves only mode(s) debugging');
    // Not offered as a variant (rc variants.modes), an inherited name, a non-string: all unknown.
    for (const variant of ['all', '__proto__', 'toString', 42, { id: 'all' }, null]) expect(refusal({ variant })).toMatch(/^Unknown server variant/);
    expect(refusal({ variant: 'x'.repeat(100_000) })!.length).toBeLessThan(300);
    const off = resolveConfig(parseConfig({}));
    expect(requestMode(off, { variant: 'development' })).toEqual({ refusal: expect.stringContaining('not enabled') });
  });
});

describe('bearer tokens (transports/auth accessFor)', () => {
  it('maps rc tokens by sha256 (any hex case), keeps --token open, refuses the rest', () => {
    expect(accessFor('Bearer ci-token', config, undefined)).toMatchObject({ kind: 'modes', grant: { label: 'ci', modes: ['security_review'] } });
    expect(accessFor('bearer   ops-token', config, undefined)).toMatchObject({ kind: 'modes', grant: { label: 'ops' } });
    expect(accessFor('Bearer admin', config, 'admin')).toEqual({ kind: 'open' });
    expect(accessFor('Bearer nope', config, 'admin')).toEqual({ kind: 'refused', message: 'Unauthorized: unknown bearer token' });
    expect(accessFor(undefined, config, undefined)).toEqual({ kind: 'refused', message: 'Unauthorized: send Authorization: Bearer <token>' });
    expect(accessFor(undefined, resolveConfig(parseConfig({})), undefined)).toEqual({ kind: 'open' });
  });
});

describe('rc keys auth, variants, cache: errors name the file, the key path and what was expected', () => {
  const fails = (rc: unknown) => {
    try {
      resolveConfig(parseConfig(rc, '/repo/.lazytoolsrc.json'), '/repo/.lazytoolsrc.json');
    } catch (error) {
      return (error as Error).message;
    }
    return undefined;
  };
  it('names what is wrong', () => {
    expect(fails({ auth: { tokens: { ci: { sha256: 'abc', modes: ['security_review'] } } } })).toMatch(/\.lazytoolsrc\.json[\s\S]*64 hex digits[\s\S]*auth\.tokens\.ci\.sha256/);
    expect(fails({ auth: { tokens: { ci: { sha256: sha('x'), modes: ['security_reveiw'] } } } })).toMatch(/auth\.tokens\.ci\.modes\[0\]: unknown mode "security_reveiw". Did you mean "security_review"/);
    expect(fails({ auth: { tokens: { a: { sha256: sha('x'), modes: ['all'] }, b: { sha256: sha('x').toUpperCase(), modes: ['all'] } } } })).toContain('auth.tokens.b.sha256: the same token as auth.tokens.a');
    expect(fails({ auth: { tokens: { ci: { sha256: sha('x'), modes: [] } } } })).toMatch(/auth\.tokens\.ci\.modes/);
    expect(fails({ auth: { token: {} } })).toMatch(/Unrecognized key: "token"[\s\S]*auth/);
    expect(fails({ variants: { enabled: true, modes: ['nope'] } })).toMatch(/variants\.modes\[0\]: unknown mode "nope"/);
    expect(fails({ cache: { ttlMs: -1 } })).toMatch(/cache\.ttlMs/);
  });
});

describe('server variants (SEP-2053 draft)', () => {
  it('advertises one variant per offered mode, default first, ranked by the client useCase hint', () => {
    const plain = variantsExtension(config, undefined, undefined)!;
    expect(plain.availableVariants.map((v) => v.id)).toEqual(['development', 'security_review', 'debugging']);
    expect(plain.default).toBe('development');
    expect(plain.availableVariants[1]).toMatchObject({ id: 'security_review', hints: { readOnly: expect.any(Boolean), useCase: expect.arrayContaining([expect.any(String)]) } });
    const ranked = variantsExtension(config, undefined, { useCase: 'fix a crash in production' })!;
    expect(ranked.default).toBe('debugging');
    expect(variantsExtension(config, ['security_review'], undefined)!.availableVariants.map((v) => v.id)).toEqual(['security_review']);
    expect(variantsExtension(resolveConfig(parseConfig({})), undefined, undefined)).toBeUndefined();
  });

  it('carries at most 10 useCase hints of at most 200 characters per variant, whatever the rc\'s aliases', () => {
    // Past the schema's bounds (100 aliases of 100 characters, a config error from parseConfig):
    // a config resolved without it still gives bounded hints.
    const aliases = [...Array.from({ length: 1_000 }, (_, i) => `alias ${i}`), 'x'.repeat(1_000_000)];
    const many = resolveConfig({ variants: { enabled: true }, modes: { big: { groups: ['files'], aliases: [aliases.at(-1)!, ...aliases] } } });
    const big = variantsExtension(many, ['big'], undefined)!.availableVariants[0]!;
    // It carried them all: 1 MB for this one mode, in every server/discover answer.
    expect(big.hints.useCase).toHaveLength(10);
    expect(big.hints.useCase[0]).toBe(`${'x'.repeat(199)}…`);
    expect(big.hints.useCase[1]).toBe('alias 0');
  });
});

const fullEnvelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

describe('era classification (protocol/era, the one classifier of stdio and HTTP)', () => {
  it('initialize without a valid claim stays legacy; server/discover or an enveloped request is modern', () => {
    expect(classifyEra({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })).toBe('legacy');
    // An incomplete claim is no valid claim: initialize stays the legacy handshake.
    expect(classifyEra({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } })).toBe('legacy');
    expect(classifyEra({ jsonrpc: '2.0', id: 1, method: 'server/discover' })).toBe('modern');
    expect(classifyEra({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: fullEnvelope } })).toBe('modern');
    // A malformed claim is modern too: the modern front answers it with the SDK's error.
    expect(classifyEra({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } })).toBe('modern');
    for (const message of [{ jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 1, method: 'tools/list' }]) expect(classifyEra(message)).toBe('legacy');
    for (const message of [null, 7, [], 'x']) expect(classifyEra(message)).toBe('invalid');
  });

  it('an initialize carrying a valid 2026-07-28 envelope claim is modern, as the SDK routes it', () => {
    expect(classifyEra({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' }, _meta: fullEnvelope } })).toBe('modern');
  });

  it('claimsEnvelope, the HTTP hot path\'s shortcut, is never true of a body classifyEra calls legacy, whatever the headers', () => {
    const claim = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    const claimed = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', _meta: fullEnvelope } },
      { jsonrpc: '2.0', id: 'x', method: 'tools/list', params: { _meta: claim } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: fullEnvelope } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': 7 } } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } },
      { jsonrpc: '2.0', id: null, method: 'tools/list', params: { _meta: claim } },
      { jsonrpc: '1.0', id: 1, method: 'tools/list', params: { _meta: claim } },
      { id: 1, params: { _meta: claim } },
      { jsonrpc: '2.0', id: 1, method: 7, params: { _meta: claim } },
    ];
    const unclaimed = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: claim } },
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: fullEnvelope } },
      { jsonrpc: '2.0', id: 1, result: {}, method: 'tools/list', params: { _meta: claim } },
      { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'm' }, params: { _meta: claim } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: {} } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [claim] },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: [claim] } },
      [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: claim } }],
      { jsonrpc: '2.0', id: 1, method: 'tools/list', _meta: claim },
      null,
    ];
    const headerSets = [{}, { 'mcp-protocol-version': '2026-07-28' }, { 'mcp-protocol-version': '2025-11-25' }, { 'mcp-method': 'other', 'mcp-name': 'other' }];
    for (const body of claimed) {
      expect(claimsEnvelope(body), JSON.stringify(body)).toBe(true);
      for (const headers of headerSets) expect(classifyEra(body, headers), JSON.stringify([body, headers])).not.toBe('legacy');
    }
    for (const body of unclaimed) expect(claimsEnvelope(body), JSON.stringify(body)).toBe(false);
  });

  it('HTTP headers take part: a modern header on a claim-less initialize is a mismatch the modern front answers', () => {
    expect(classifyEra({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, { 'mcp-protocol-version': '2026-07-28' })).toBe('modern');
    expect(classifyEra({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, { 'mcp-protocol-version': '2025-11-25' })).toBe('legacy');
  });
});
