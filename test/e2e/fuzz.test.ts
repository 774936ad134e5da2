import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BIN, referenceRc, suiteGateway } from '../harness/index.js';

/** A small deterministic PRNG, so a failing case can be replayed. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const VALID: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_graph', arguments: {} } },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'focus_mode', arguments: { mode: 'all' } } },
  { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'graph' } } },
  { jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: 'lazytools://groups' } },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } },
  { jsonrpc: '2.0', id: 6, method: 'ping' },
];

const WEIRD: unknown[] = [null, 0, -1, 1e308, '', 'x'.repeat(1000), true, [], {}, [1, 2], { a: { b: { c: [] } } }, '\u0000', '\ud800', NaN];

function mutate(value: unknown, random: () => number, depth = 0): unknown {
  if (depth > 4 || random() < 0.3) return WEIRD[Math.floor(random() * WEIRD.length)];
  if (Array.isArray(value)) return value.map((v) => mutate(v, random, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const roll = random();
      if (roll < 0.15) continue;
      out[roll < 0.25 ? `${key}_` : key] = roll < 0.6 ? v : mutate(v, random, depth + 1);
    }
    if (random() < 0.2) out[`extra${depth}`] = WEIRD[Math.floor(random() * WEIRD.length)];
    return out;
  }
  return random() < 0.5 ? value : WEIRD[Math.floor(random() * WEIRD.length)];
}

/** Random, mutated and broken lines: the front must answer or drop each and keep serving. */
function messages(count: number, seed: number): string[] {
  const random = prng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.15) out.push(Array.from({ length: Math.floor(random() * 200) }, () => String.fromCharCode(32 + Math.floor(random() * 95))).join(''));
    else if (roll < 0.2) out.push(`${'['.repeat(5000)}${']'.repeat(5000)}`);
    else if (roll < 0.25) out.push(JSON.stringify({ jsonrpc: '2.0', id: i + 100, method: 'tools/call', params: { name: 'search_tools', arguments: { query: 'x'.repeat(200_000) } } }));
    else if (roll < 0.35) out.push(JSON.stringify(WEIRD[Math.floor(random() * WEIRD.length)]));
    else if (roll < 0.45) out.push(JSON.stringify({ jsonrpc: '2.0', id: i + 100, method: `nope/${i}`, params: {} }));
    else {
      const base = VALID[Math.floor(random() * VALID.length)] as Record<string, unknown>;
      const mutated = mutate(base, random) as Record<string, unknown> | null;
      if (mutated && typeof mutated === 'object' && !Array.isArray(mutated) && 'id' in mutated && random() < 0.7) mutated.id = i + 100;
      out.push(JSON.stringify(mutated));
    }
  }
  return out;
}

/** Message counts; each test's time limit scales with its count (an upper bound for a loaded machine). */
const STDIO_MESSAGES = 3000;
const HTTP_MESSAGES = 800;

const initialize = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } };

describe('fuzzing the front', () => {
  it('survives thousands of random and mutated messages over stdio', async () => {
    const { dir } = referenceRc({ defaultMode: 'all' });
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let exited = false;
    // Ends when the final answer arrives, or when the gateway exits (a crash).
    const done = new Promise<void>((resolve) => {
      let finalAt = -1;
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        const from = Math.max(0, stdout.length - 16);
        stdout += chunk;
        if (finalAt < 0) finalAt = stdout.indexOf('"id":"final"', from);
        if (finalAt >= 0 && stdout.includes('\n', finalAt)) resolve();
      });
      child.once('exit', () => {
        exited = true;
        resolve();
      });
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const write = (line: string) => new Promise<void>((resolve) => (child.stdin.write(`${line}\n`) ? resolve() : child.stdin.once('drain', () => resolve())));
    await write(JSON.stringify(initialize));
    await write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    for (const line of messages(STDIO_MESSAGES, 42)) await write(line);
    await write(JSON.stringify({ jsonrpc: '2.0', id: 'final', method: 'tools/list' }));
    await done;
    expect(exited).toBe(false);
    // Complete lines only: answers to earlier requests may still be arriving.
    const lines = stdout.slice(0, stdout.lastIndexOf('\n')).trim().split('\n').map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number }; result?: { tools?: unknown[] } });
    const final = lines.find((l) => l.id === 'final');
    expect(final?.result?.tools?.length).toBeGreaterThan(3);
    expect(lines.some((l) => l.error?.code === -32700)).toBe(true);
    expect(lines.some((l) => l.error?.code === -32601)).toBe(true);
    expect(stderr).not.toMatch(/unhandled|TypeError|RangeError/);
    const ended = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    await ended;
  }, STDIO_MESSAGES * 60);

  describe('over HTTP', () => {
    const suite = suiteGateway(() => referenceRc({ defaultMode: 'all' }).file);

    function post(body: string, headers: Record<string, string> = {}) {
      return new Promise<{ status: number; body: string; session?: string }>((resolve, reject) => {
        const req = request(suite.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, session: res.headers['mcp-session-id'] as string | undefined }));
        });
        req.on('error', reject);
        req.end(body);
      });
    }

    it('answers every random body with an HTTP status and keeps serving', async () => {
      const init = await post(JSON.stringify(initialize));
      expect(init.status).toBe(200);
      const session = { 'mcp-session-id': init.session!, 'mcp-protocol-version': '2025-11-25' };
      await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), session);
      const statuses = new Set<number>();
      for (const body of messages(HTTP_MESSAGES, 7)) {
        const res = await post(body, session);
        statuses.add(res.status);
        expect(res.status).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(500);
      }
      expect(statuses.has(400)).toBe(true);
      const list = await post(JSON.stringify({ jsonrpc: '2.0', id: 'final', method: 'tools/list' }), session);
      expect(list.status).toBe(200);
      expect(list.body).toContain('"id":"final"');
    }, HTTP_MESSAGES * 150);
  });
});
