import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { CallTable } from '../../src/upstream/calls.js';
import { attachRaw } from '../../src/upstream/raw.js';

/**
 * Answers on numeric ids are the SDK client's own (lists, pings); one to a request the SDK never
 * sent is unasked, and the flood gate judges it as it judges a stray answer on a string id. It
 * went straight to the SDK, which logs each one: a remote server pouring them held every
 * client's calls ~50x longer (p50 7 ms quiet, 533 ms under it) and the gate never heard of it.
 */
describe('answers the SDK client never asked for', () => {
  it('are judged by the flood gate; answers to its own requests are not', async () => {
    const [ours, theirs] = InMemoryTransport.createLinkedPair();
    const gated: string[] = [];
    const reached: JSONRPCMessage[] = [];
    ours.onmessage = (message) => void reached.push(message);
    const calls = new CallTable('s', { settled: () => {}, timedOut: () => {} });
    attachRaw('s', ours, calls, { answered: () => {}, notification: () => false, warn: () => {}, gated: (method) => (gated.push(method), true) });
    await ours.start();
    await theirs.start();
    await ours.send({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    await theirs.send({ jsonrpc: '2.0', id: 7, result: { tools: [] } });
    await theirs.send({ jsonrpc: '2.0', id: 7, result: { tools: [] } });
    await theirs.send({ jsonrpc: '2.0', id: 1234, result: { x: 1 } });
    expect(gated).toEqual(['response', 'response']);
    expect(reached).toEqual([{ jsonrpc: '2.0', id: 7, result: { tools: [] } }]);
  });

  it('a message the transport could not read (an SSE event that is no JSON) is judged too: it held /healthz for 15 s', () => {
    const [ours] = InMemoryTransport.createLinkedPair();
    const gated: string[] = [];
    const errors: Error[] = [];
    ours.onerror = (error) => void errors.push(error);
    const calls = new CallTable('s', { settled: () => {}, timedOut: () => {} });
    let open = true;
    attachRaw('s', ours, calls, { answered: () => {}, notification: () => false, warn: () => {}, gated: (method) => (gated.push(method), !open) });
    ours.onerror?.(new Error('Unexpected token'));
    open = false;
    ours.onerror?.(new Error('Unexpected token'));
    expect(gated).toEqual(['error', 'error']);
    expect(errors).toHaveLength(1);
  });
});
