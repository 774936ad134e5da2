import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { LineReader } from '../../src/protocol/lines.js';
import { BIN, FIXTURES, rcProject, suiteGateway } from '../harness/index.js';

const FIXTURE = FIXTURES.kitchenSink;
const { file } = rcProject({ servers: { kitchen: { command: process.execPath, args: [FIXTURE] } }, defaultMode: 'all' });
const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };

describe('clients that negotiate the era', () => {
  const suite = suiteGateway(() => file);

  // @ai-sdk/mcp 2.x probed server/discover first but needs Node 22; 1.x (Node 20) opens with
  // initialize (test/e2e/clients.test.ts walks it). The v2 SDK Client negotiating with `auto`
  // probes server/discover first, as the 2.x AI SDK client did.
  it('a client that probes server/discover first (v2 Client, versionNegotiation auto) gets 2026-07-28 over HTTP: lists, calls, and focus_mode answers how to reach a mode', async () => {
    const client = new Client({ name: 'auto-negotiating', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(suite.url)));
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('test_simple_text');
      expect(names).toContain('focus_mode');
      const result = (await client.callTool({ name: 'test_simple_text', arguments: {} })) as { content: Array<{ text: string }> };
      expect(result.content[0]?.text).toBeTruthy();
      const focus = (await client.callTool({ name: 'focus_mode', arguments: { mode: 'debugging' } })) as { structuredContent: { target: string; reach: { url: string } } };
      expect(focus.structuredContent).toMatchObject({ target: 'debugging', reach: { url: `${suite.url}/debugging` } });
      // No session was opened: the modern era keeps none.
      expect(suite.served.http!.sessions.size).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('over stdio, a client that probes server/discover and then falls back to initialize gets its 2025 session', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--config', file], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, LAZYTOOLS_QUIET: '1' } });
    const answers = new Map<unknown, Record<string, unknown>>();
    const waiting = new Map<unknown, (answer: Record<string, unknown>) => void>();
    const reader = new LineReader(
      (message) => {
        const id = (message as { id?: unknown }).id;
        answers.set(id, message as never);
        waiting.get(id)?.(message as never);
      },
      () => {},
    );
    child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
    const answer = (id: number) => new Promise<Record<string, unknown>>((resolve) => (answers.has(id) ? resolve(answers.get(id)!) : waiting.set(id, resolve)));
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    try {
      // The probe and the fallback, back to back (a probe timeout shorter than the answer).
      send({ jsonrpc: '2.0', id: 0, method: 'server/discover', params: { _meta: ENVELOPE } });
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fallback', version: '1' } } });
      const initialized = await answer(1);
      expect(initialized.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'lazytools' } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'focus_mode', arguments: { mode: 'debugging' } } });
      const switched = await answer(2);
      expect(JSON.stringify(switched.result)).toContain('debugging');
    } finally {
      child.kill();
    }
  });
});
