import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Agent, request, type IncomingMessage, type Server } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import { ACCEPT, FIXTURES, modernMeta, rawListen, rcProject, serveHttpGateway, serverEntry } from '../harness/index.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * serve --watch over HTTP: a reload that takes a bearer token's access away ends the 2025
 * sessions opened with it. Before, their requests were refused but the sessions lived on until
 * the idle timeout (30 minutes), their GET streams still hearing what the upstreams of the old
 * modes sent (log lines, list changes, resource updates).
 */
function rc(tokens: Record<string, { sha256: string; modes: readonly string[] }>, audit = 'Read the graph', auditReadOnly = true) {
  return {
    servers: { memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: 'memory.jsonl' } } },
    groups: { notes: { servers: ['memory'] } },
    modes: { notes: { description: 'Knowledge graph notes', groups: ['notes'] }, audit: { description: audit, groups: ['notes'], readOnly: auditReadOnly } },
    defaultMode: 'notes',
    ...(Object.keys(tokens).length > 0 ? { auth: { tokens } } : {}),
  };
}

const notes = { sha256: sha256('notes-token'), modes: ['notes'] };
const other = { sha256: sha256('other-token'), modes: ['audit'] };

async function open(url: string, token: string | undefined): Promise<Client> {
  const client = new Client({ name: 'revoke', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

describe('a reload that takes access away ends the sessions that had it', () => {
  for (const [label, before, after, token] of [
    ['a token removed', { notes, other }, { other }, 'notes-token'],
    ['a token whose modes changed', { notes, other }, { notes: { ...notes, modes: ['audit'] }, other }, 'notes-token'],
    ['a token rotated (same label and modes, a new secret)', { notes, other }, { notes: { ...notes, sha256: sha256('new-notes-token') }, other }, 'notes-token'],
    ['tokens added to a gateway that was open', {}, { other }, undefined],
  ] as const) {
    it(label, async () => {
      const { file } = rcProject(rc(before));
      const served = await serveHttpGateway(file, { watch: true });
      // A session whose access the edit keeps (the control).
      const kept = token === undefined ? undefined : await open(served.http!.url, 'other-token');
      const client = await open(served.http!.url, token);
      try {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        expect(served.http!.sessions.size).toBe(kept ? 2 : 1);
        writeFileSync(file, JSON.stringify(rc(after)));
        await vi.waitFor(() => expect(served.gateway.config.tokens.length).toBe(Object.keys(after).length), { timeout: 10_000, interval: 20 });
        await vi.waitFor(() => expect(served.http!.sessions.size).toBe(kept ? 1 : 0), { timeout: 10_000, interval: 20 });
        expect(served.gateway.sessions.size).toBe(kept ? 1 : 0);
        if (kept) expect((await kept.listTools()).tools.length).toBeGreaterThan(0);
      } finally {
        await client.close().catch(() => {});
        await kept?.close().catch(() => {});
        await served.close();
      }
    }, 120_000);
  }
});

const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('a reload that takes access away ends the 2026-07-28 listen streams that had it', () => {
  for (const [label, after] of [
    ['a token removed', { other }],
    ['a token whose modes changed', { notes: { ...notes, modes: ['audit'] }, other }],
    ['a token rotated', { notes: { ...notes, sha256: sha256('new-notes-token') }, other }],
  ] as const) {
    it(`${label}: its stream ends before the reload's list change, which the kept stream hears`, async () => {
      const { file } = rcProject(rc({ notes, other }));
      const served = await serveHttpGateway(file, { watch: true });
      const port = Number(new URL(served.http!.url).port);
      const gone = await rawListen(port, { id: 'gone', headers: bearer('notes-token'), agent });
      const kept = await rawListen(port, { id: 'kept', headers: bearer('other-token'), agent });
      try {
        expect([gone.status, kept.status]).toEqual([200, 200]);
        // The edit opens the audit mode to the writing tools too: the kept token's list changes, and
        // its listen hears so (a stream hears a list change only when its own list changed: listen-scope.ts).
        writeFileSync(file, JSON.stringify(rc(after, 'Read the knowledge graph', false)));
        await kept.heard(/notifications\/tools\/list_changed/);
        await Promise.race([gone.ended, gone.heard(/notifications\/tools\/list_changed/)]);
        expect(gone.text()).not.toContain('list_changed');
        expect(gone.isOpen()).toBe(false);
        expect(kept.isOpen()).toBe(true);
      } finally {
        gone.close();
        kept.close();
        await served.close();
      }
    }, 120_000);
  }
});

/**
 * POSTs `body` with `token`, its last byte held back until `between` ran (the request read, the
 * token checked, the body still coming), then resolves with the answer's status.
 */
function trickled(url: string, token: string, body: string, headers: Record<string, string>, server: Server, between: () => Promise<void>): Promise<number> {
  return new Promise((resolve, reject) => {
    const bytes = Buffer.from(body);
    // The server's side of this request: once it reads the body, the token was checked.
    server.once('request', (incoming: IncomingMessage) => {
      void vi
        .waitFor(() => expect(incoming.listenerCount('readable') + incoming.listenerCount('data')).toBeGreaterThan(0), { timeout: 10_000, interval: 10 })
        .then(between)
        .then(() => req.end(bytes.subarray(bytes.length - 1)), reject);
    });
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: ACCEPT, 'content-length': String(bytes.length), ...bearer(token), ...headers } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(bytes.subarray(0, bytes.length - 1));
  });
}

describe('a request whose body comes in across a reload that revokes its token is not served with the old access', () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'slow', version: '1.0.0' } } };
  const toolsList = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } };
  for (const [label, body, headers] of [
    ['a 2025 initialize: no session is kept', initialize, {}],
    ['a 2026-07-28 tools/list', toolsList, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }],
  ] as const) {
    it(label, async () => {
      const { file } = rcProject(rc({ notes, other }));
      const served = await serveHttpGateway(file, { watch: true });
      try {
        const status = await trickled(served.http!.url, 'notes-token', JSON.stringify(body), headers, served.http!.server, async () => {
          writeFileSync(file, JSON.stringify(rc({ other })));
          await vi.waitFor(() => expect(served.gateway.config.tokens.length).toBe(1), { timeout: 10_000, interval: 20 });
        });
        expect(status).toBe(401);
        expect(served.http!.sessions.size).toBe(0);
        expect(served.gateway.sessions.size).toBe(0);
      } finally {
        await served.close();
      }
    }, 120_000);
  }
});

/** An rc whose `ask` mode holds a tool that asks its client (an input round on 2026-07-28), with tokens `t` and `u`. */
const askRc = (tModes: readonly string[]) => ({
  servers: { kitchen: { command: process.execPath, args: [FIXTURES.kitchenSink, '--legacy-only'] } },
  groups: { asks: { tools: ['test_elicitation'] }, plain: { tools: ['test_simple_text'] } },
  modes: { ask: { description: 'Asks its user', groups: ['asks'] }, plain: { description: 'Plain text', groups: ['plain'] } },
  defaultMode: 'plain',
  auth: { tokens: { t: { sha256: sha256('t-token'), modes: tModes }, u: { sha256: sha256('u-token'), modes: ['ask'] } } },
});

interface Answer {
  result?: { resultType?: string; requestState?: string; inputRequests?: Record<string, unknown>; content?: Array<{ text?: string }> };
  error?: { message: string };
}

/** A 2026-07-28 tools/call of test_elicitation with `token` (`retry`: a round's requestState and answers). */
function askCall(port: number, token: string, retry: Record<string, unknown> = {}): Promise<Answer> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_elicitation', arguments: { message: 'who?' }, _meta: modernMeta({ elicitation: {} }), ...retry } });
  const headers = { 'content-type': 'application/json', accept: ACCEPT, ...bearer(token), 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'test_elicitation' };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers, agent }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}')) as Answer));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a reload that changes a token\'s modes leaves its open 2026-07-28 input rounds to no one', () => {
  it('a retry cannot resume a call begun under the old modes; another token\'s round resumes', async () => {
    const { file } = rcProject(askRc(['ask']));
    const served = await serveHttpGateway(file, { watch: true });
    const port = Number(new URL(served.http!.url).port);
    try {
      const [asked, control] = [await askCall(port, 't-token'), await askCall(port, 'u-token')];
      expect([asked.result?.resultType, control.result?.resultType]).toEqual(['input_required', 'input_required']);
      writeFileSync(file, JSON.stringify(askRc(['plain'])));
      await vi.waitFor(() => expect(served.gateway.config.tokens.find((grant) => grant.label === 't')?.modes).toEqual(['plain']), { timeout: 10_000, interval: 20 });
      // test_elicitation is no longer t's to call, afresh or through the round it had open.
      expect((await askCall(port, 't-token')).result?.content?.[0]?.text).toContain('Unknown tool "test_elicitation"');
      const answers = (round: Answer) => ({ requestState: round.result?.requestState, inputResponses: Object.fromEntries(Object.keys(round.result?.inputRequests ?? {}).map((key) => [key, { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } }])) });
      const resumed = await askCall(port, 't-token', answers(asked));
      expect(resumed.error?.message).toBe('Invalid or expired requestState');
      expect(JSON.stringify(resumed)).not.toContain('ada@example.com');
      expect((await askCall(port, 'u-token', answers(control))).result?.content?.[0]?.text).toContain('User response: action=accept');
    } finally {
      await served.close();
    }
  }, 120_000);
});

describe('a reload that takes a token away cancels its open 2026-07-28 input rounds', () => {
  for (const [label, tModes, after] of [
    ['a token removed', ['ask'], { u: askRc(['ask']).auth.tokens.u }],
    ['a token whose modes changed', ['ask'], askRc(['plain']).auth.tokens],
  ] as const) {
    it(`${label}: its round (and the upstream call) ends at once; another token's round resumes`, async () => {
      const { file } = rcProject(askRc(tModes));
      const served = await serveHttpGateway(file, { watch: true });
      const port = Number(new URL(served.http!.url).port);
      try {
        const [asked, control] = [await askCall(port, 't-token'), await askCall(port, 'u-token')];
        expect([asked.result?.resultType, control.result?.resultType]).toEqual(['input_required', 'input_required']);
        const kitchen = served.gateway.upstreams.get('kitchen')!;
        expect([served.gateway.inputRounds.size, kitchen.inFlight]).toEqual([2, 2]);
        writeFileSync(file, JSON.stringify({ ...askRc(tModes), auth: { tokens: after } }));
        await vi.waitFor(() => expect([served.gateway.inputRounds.size, kitchen.inFlight]).toEqual([1, 1]), { timeout: 10_000, interval: 20 });
        const answers = (round: Answer) => ({ requestState: round.result?.requestState, inputResponses: Object.fromEntries(Object.keys(round.result?.inputRequests ?? {}).map((key) => [key, { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } }])) });
        expect((await askCall(port, 'u-token', answers(control))).result?.content?.[0]?.text).toContain('User response: action=accept');
        expect(served.gateway.inputRounds.size).toBe(0);
      } finally {
        await served.close();
      }
    }, 120_000);
  }
});

/** A raw 2025 session opened with `token`: initialized, its tools listed once, its GET stream open (what it heard, and when it ended). */
async function rawSession(port: number, token: string): Promise<{ text: () => string; ended: Promise<void>; close: () => void }> {
  const post = (body: unknown, session?: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      const headers = { 'content-type': 'application/json', accept: ACCEPT, ...bearer(token), ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}) };
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers, agent }, (res) => {
        res.resume();
        res.once('end', () => resolve(res.headers['mcp-session-id'] as string | undefined));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const session = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } } });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
  await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
  return new Promise((resolve, reject) => {
    const headers = { accept: 'text/event-stream', ...bearer(token), 'mcp-session-id': session!, 'mcp-protocol-version': '2025-11-25' };
    const req = request({ host: '127.0.0.1', port, method: 'GET', path: '/mcp', headers, agent }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('error', () => {});
      const ended = new Promise<void>((done) => res.once('close', () => done()));
      resolve({ text: () => text, ended, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a reload that revokes a token tells its 2025 sessions nothing', () => {
  it('the revoked session\'s GET stream ends without the list_changed the kept session hears', async () => {
    const both = ['notes', 'audit'];
    const { file } = rcProject(rc({ notes: { ...notes, modes: both }, other: { ...other, modes: both } }));
    const served = await serveHttpGateway(file, { watch: true });
    const port = Number(new URL(served.http!.url).port);
    const gone = await rawSession(port, 'notes-token');
    const kept = await rawSession(port, 'other-token');
    try {
      expect(served.http!.sessions.size).toBe(2);
      const sent = served.gateway.listChangedSent;
      // The edit changes a mode's description: focus_mode's definition, so every session's list, changes.
      writeFileSync(file, JSON.stringify(rc({ other: { ...other, modes: both } }, 'Read the knowledge graph')));
      await vi.waitFor(() => expect(kept.text()).toContain('notifications/tools/list_changed'), { timeout: 10_000, interval: 20 });
      await gone.ended;
      expect(served.http!.sessions.size).toBe(1);
      expect(gone.text()).not.toContain('list_changed');
      // Not even sent toward it (the metric counts what was sent): only the kept session's.
      expect(served.gateway.listChangedSent - sent).toBe(1);
    } finally {
      gone.close();
      kept.close();
      await served.close();
    }
  }, 120_000);
});
