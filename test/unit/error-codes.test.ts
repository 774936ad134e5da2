import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/protocol/jsonrpc.js';

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
