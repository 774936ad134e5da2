import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { StartAnswers, startKey } from '../../src/transports/start-answers.js';
import { StdioFrontTransport } from '../../src/transports/stdio.js';
import { classifyEra, PROTOCOL_VERSION_META_KEY } from '../../src/protocol/era.js';

// StartAnswers over a real stdio transport on in-memory streams; the gateway's side is played by
// answering what the transport hands over (as the SDK server would), so each rule is seen alone.
// The whole path through the real CLI is test/e2e/start-answers.test.ts.

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'unit', version: '1' } } };
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
const INIT_ANSWER = { result: { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'lazytools', version: '0' } }, jsonrpc: '2.0', id: 1 };
const LIST_ANSWER = { result: { tools: [{ name: 'a', inputSchema: { type: 'object' } }] }, jsonrpc: '2.0', id: 2 };

/** One connection: its transport, its StartAnswers, and the lines it wrote. */
function connection(folder: string, options: { cacheable?: boolean; warnings?: string[] } = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  output.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const transport = new StdioFrontTransport(input, output);
  const warnings = options.warnings ?? [];
  const answers = new StartAnswers(folder, 'k'.repeat(64), transport, { info: () => {}, warn: (message) => warnings.push(message), error: () => {} });
  answers.cacheable = options.cacheable ?? true;
  answers.legacy = (message) => classifyEra(message) !== 'modern';
  const write = (...messages: object[]) => input.write(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
  return { transport, answers, lines, write };
}

/** Plays the gateway: takes the handler over, gets the held messages, answers the opening. */
async function gateway(c: ReturnType<typeof connection>, held: JSONRPCMessage[], answers: object[] = [INIT_ANSWER, LIST_ANSWER]): Promise<void> {
  const seen: JSONRPCMessage[] = [];
  c.transport.onmessage = (message) => seen.push(message);
  c.transport.deliver(held.splice(0));
  for (const answer of answers) await c.transport.send(answer as JSONRPCMessage);
  // settle runs on the next turn, after the last answer is written.
  await new Promise((resolve) => setImmediate(resolve));
}

/** A connection of `folder` that opens (initialize, initialized, tools/list) with nothing held and gets the gateway's `answers`: the first such opening records an entry. */
async function playOpening(folder: string, options: Parameters<typeof connection>[1] = {}, answers?: object[]): Promise<void> {
  const c = connection(folder, options);
  await c.transport.start();
  c.write(INIT, INITIALIZED, LIST);
  await new Promise((resolve) => setImmediate(resolve));
  await gateway(c, [], answers);
}

describe('StartAnswers', () => {
  // Recorded on a setImmediate after the gateway's last answer: a connection that closed before
  // that turn (the client ending its input at once; the process exits with it) wrote no entry.
  it('records the opening when the connection closes before the turn after the last answer', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lazytools-answers-'));
    const c = connection(folder);
    await c.transport.start();
    c.write(INIT, INITIALIZED, LIST);
    await new Promise((resolve) => setImmediate(resolve));
    c.transport.onmessage = () => {};
    for (const answer of [INIT_ANSWER, LIST_ANSWER]) await c.transport.send(answer as JSONRPCMessage);
    void c.transport.close();
    expect(readdirSync(folder)).toHaveLength(1);
  });

  it('records an opening, then answers the same opening from it; the gateway own answers are checked and kept off the output', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lazytools-answers-'));
    const first = connection(folder);
    expect(first.answers.known()).toBe(false);
    await first.transport.start();
    first.write(INIT, INITIALIZED, LIST);
    await new Promise((resolve) => setImmediate(resolve));
    await gateway(first, []);
    expect(readdirSync(folder)).toHaveLength(1);
    expect(first.lines).toEqual([JSON.stringify(INIT_ANSWER), JSON.stringify(LIST_ANSWER)]);

    const warnings: string[] = [];
    const second = connection(folder, { warnings });
    expect(second.answers.known()).toBe(true);
    const opened = second.answers.open();
    second.write(INIT, INITIALIZED, LIST);
    const held = await opened;
    expect(held.map((m) => ('method' in m ? m.method : ''))).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
    expect(second.lines).toEqual(first.lines);
    await gateway(second, held);
    expect(second.lines).toEqual(first.lines);
    expect(warnings).toEqual([]);
    expect(readdirSync(folder)).toHaveLength(1);
  });

  // adv31: the transport's own error reply (a line nested too deep, answered before any handler
  // sees it) went through the tap: reusing the tools/list's id, it was taken for the gateway's
  // tools/list answer, kept off the output, found to differ, and the entry was removed with a
  // warning and a list_changed, while the client got its tool list twice and no error.
  it("leaves the transport's own error replies alone, whatever id they carry", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lazytools-answers-'));
    await playOpening(folder);
    expect(readdirSync(folder)).toHaveLength(1);

    const warnings: string[] = [];
    const second = connection(folder, { warnings });
    const opened = second.answers.open();
    second.write(INIT, INITIALIZED, LIST);
    const held = await opened;
    let deep: unknown = [];
    for (let i = 0; i < 600; i++) deep = [deep];
    second.write({ jsonrpc: '2.0', id: 2, method: 'ping', params: { deep } });
    await new Promise((resolve) => setImmediate(resolve));
    await gateway(second, held);
    expect(second.lines.filter((line) => line.includes('"error"'))).toHaveLength(1);
    expect(second.lines.filter((line) => line.includes('"tools":['))).toHaveLength(1);
    expect(warnings).toEqual([]);
    expect(readdirSync(folder)).toHaveLength(1);
  });

  it('records nothing when a server starts at boot, for a 2026-07-28 opening, or for an error answer', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lazytools-answers-'));
    await playOpening(folder, { cacheable: false });

    const modern = connection(folder);
    await modern.transport.start();
    const enveloped = { ...INIT, params: { ...INIT.params, _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } };
    expect(classifyEra(enveloped)).toBe('modern');
    modern.write(enveloped, INITIALIZED, LIST);
    await new Promise((resolve) => setImmediate(resolve));
    await gateway(modern, []);

    await playOpening(folder, {}, [INIT_ANSWER, { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'no' } }]);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('answers nothing from an entry for other initialize params, or from one that does not hold result answers', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lazytools-answers-'));
    await playOpening(folder);

    const other = connection(folder);
    const opened = other.answers.open();
    other.write({ ...INIT, params: { ...INIT.params, clientInfo: { name: 'other', version: '1' } } });
    expect(await opened).toHaveLength(1);
    expect(other.lines).toEqual([]);

    const [name] = readdirSync(folder);
    writeFileSync(path.join(folder, name!), JSON.stringify({ init: { jsonrpc: '2.0', error: { code: 1, message: 'x' } }, listParams: '{}', list: LIST_ANSWER }));
    const garbled = connection(folder);
    const reopened = garbled.answers.open();
    garbled.write(INIT);
    expect(await reopened).toHaveLength(1);
    expect(garbled.lines).toEqual([]);
  });
});

describe('startKey: what a start is answered by', () => {
  const base = { lockBytes: new TextEncoder().encode('{"lock":1}'), rc: { servers: {} }, rcFile: '/p/.lazytoolsrc.json', usage: '', mode: undefined, strategy: undefined, env: { HOME: '/h' }, cwd: '/p' };

  it('keys by the rc file as read (not yet validated), its usage file, the lock and the environment', () => {
    const key = startKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(startKey({ ...base })).toBe(key);
    expect(startKey({ ...base, rc: { servers: {}, defaultMode: 'research' } })).not.toBe(key);
    expect(startKey({ ...base, rcFile: '/p/lazytools.config.js' })).not.toBe(key);
    expect(startKey({ ...base, usage: '120:1700000000000' })).not.toBe(key);
    expect(startKey({ ...base, lockBytes: new TextEncoder().encode('{"lock":2}') })).not.toBe(key);
    expect(startKey({ ...base, env: { HOME: '/h', TOKEN: 'x' } })).not.toBe(key);
  });

  it('has no key for an rc value without a JSON form (a JS rc\'s cycle or throwing getter): that start is not answered early', () => {
    const cyclic: Record<string, unknown> = { servers: {} };
    cyclic.self = cyclic;
    expect(startKey({ ...base, rc: cyclic })).toBeUndefined();
    const throwing = Object.defineProperty({}, 'servers', { enumerable: true, get: () => { throw new Error('secret store down'); } });
    expect(startKey({ ...base, rc: throwing })).toBeUndefined();
    expect(startKey({ ...base, rc: { big: 1n } })).toBeUndefined();
  });

  // adv29: the key was JSON.stringify of the rc's value, which leaves out what the schema still
  // reads (a class instance's getters, inherited keys): a JS rc edited from defaultMode "all" to
  // "development" met the entry of "all", and one edited to an invalid value showed that list,
  // then exited 2, on every start (the entry never went).
  it('has no key for an rc value JSON would not show whole (class getters, inherited, hidden or symbol keys, undefined, NaN, holes, toJSON, a Proxy)', () => {
    class Rc {
      get defaultMode() {
        return 'all';
      }
    }
    const values: unknown[] = [
      new Rc(),
      Object.create({ defaultMode: 'all' }) as unknown,
      Object.defineProperty({ servers: {} }, 'defaultMode', { value: 'all', enumerable: false }),
      Object.defineProperty({ servers: {} }, 'defaultMode', { enumerable: true, get: () => 'all' }),
      { servers: {}, [Symbol('mode')]: 'all' },
      { servers: {}, sevrers: undefined },
      { budget: Number.NaN },
      { alwaysVisible: Object.assign(new Array<string>(2), { 1: 'x' }) },
      { servers: {}, toJSON: () => ({}) },
      new Proxy({ servers: {} }, {}),
      { servers: new Map([['a', {}]]) },
      { modes: { a: { aliases: Object.assign(['x'], { more: 'y' }) } } },
    ];
    for (const rc of values) expect(startKey({ ...base, rc })).toBeUndefined();
    // Plain data still keys, a prototype-free object too (what a null-prototype parse gives).
    expect(startKey({ ...base, rc: Object.assign(Object.create(null) as object, { servers: {} }) })).toBe(startKey(base));
    expect(startKey({ ...base, rc: { servers: {}, modes: { a: { aliases: ['x', 'y'], budget: 1.5 } }, pin: false, x: null } })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('has no key for an rc whose JSON would be larger than 16 MiB: a YAML anchor bomb (aliases written out at each use) costs its size, not 9^30', () => {
    let level: unknown[] = ['x'];
    for (let i = 0; i < 30; i++) level = Array.from({ length: 9 }, () => level);
    expect(startKey({ ...base, rc: { servers: {}, x: level } })).toBeUndefined();
    // A shared block (a YAML anchor of common env) keys as its JSON, which repeats it.
    const shared = { command: 'node', env: { A: 'b' } };
    expect(startKey({ ...base, rc: { servers: { a: shared, b: shared } } })).toBe(startKey({ ...base, rc: { servers: { a: { ...shared }, b: { ...shared } } } }));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = [cyclic];
    expect(startKey({ ...base, rc: cyclic })).toBeUndefined();
    // One long string met 20 times (20 x 1 MiB of JSON); deep nesting is walked without recursion.
    const long = 'x'.repeat(1024 * 1024);
    expect(startKey({ ...base, rc: { x: Array.from({ length: 20 }, () => long) } })).toBeUndefined();
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(startKey({ ...base, rc: { x: deep } })).toBeUndefined();
  });
});
