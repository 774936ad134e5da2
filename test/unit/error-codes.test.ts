import { LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/protocol/jsonrpc.js';
import { MAX_URI_ECHO, noCompletionSource, resourceNotFound, unknownGroup } from '../../src/protocol/errors.js';
import { LOG_LEVEL_META } from '../../src/protocol/revision.js';

// protocol/jsonrpc.ts writes the SDK's JSON-RPC codes as numbers (so the stdio line reader loads
// without the SDK's server package): they must stay the SDK's own.
describe('ErrorCode', () => {
  it('holds the SDK ProtocolErrorCode values it names', () => {
    expect(ErrorCode).toMatchObject({
      ParseError: ProtocolErrorCode.ParseError,
      InvalidRequest: ProtocolErrorCode.InvalidRequest,
      MethodNotFound: ProtocolErrorCode.MethodNotFound,
      InvalidParams: ProtocolErrorCode.InvalidParams,
      InternalError: ProtocolErrorCode.InternalError,
      MissingClientCapability: ProtocolErrorCode.MissingRequiredClientCapability,
      GroupNotFound: ProtocolErrorCode.ResourceNotFound,
    });
  });
});

// protocol/revision.ts writes the envelope key of a request's log level itself (so upstream/modern
// loads without the SDK's client package): it must stay the SDK's own.
describe('LOG_LEVEL_META', () => {
  it("is the SDK's LOG_LEVEL_META_KEY", () => {
    expect(LOG_LEVEL_META).toBe(LOG_LEVEL_META_KEY);
  });
});

/** A lone high surrogate: half an emoji, which JSON carries as \ud83d and no client can show. */
const HALF_CHARACTER = /[\ud800-\udbff](?![\udc00-\udfff])/;

describe('echoes in protocol errors are cut at a whole character', () => {
  it('groups/get of an unknown name: an emoji across the 80th character is kept whole or dropped', () => {
    const error = unknownGroup(`a${'😀'.repeat(41)}`);
    const name = (error.data as { name: string }).name;
    expect(name).toBe(`a${'😀'.repeat(39)}…`);
    expect(error.message).not.toMatch(HALF_CHARACTER);
  });

  it('resources/read of an unknown URI: data.uri is cut at a whole character', () => {
    const error = resourceNotFound(`x:/${'😀'.repeat(MAX_URI_ECHO)}`);
    const uri = (error.data as { uri: string }).uri;
    expect(uri).toMatch(/^x:\/(😀)+… \[URI cut by lazytools at 2048 characters\]$/u);
    expect(uri).not.toMatch(HALF_CHARACTER);
  });

  it('completion/complete that no server offers: the reference is cut to 200 characters at a whole character', () => {
    // JSON.stringify(ref) is `{"type":"ref/resource","uri":"` (30 characters) and the URI: the 200th falls inside an emoji.
    const error = noCompletionSource({ type: 'ref/resource', uri: `${'x'.repeat(139)}${'😀'.repeat(1_000)}` });
    expect(error.message).not.toMatch(HALF_CHARACTER);
    expect(error.message).toMatch(/for \{"type":"ref\/resource","uri":"x{139}(😀){15}…$/u);
    expect(noCompletionSource(undefined).message).toBe('No server offers completions for undefined');
  });
});
