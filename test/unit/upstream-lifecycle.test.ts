import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createActor, SimulatedClock } from 'xstate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffMs, idleCheckMs, lifecycleMachine, statusOf, waitSeconds } from '../../src/upstream/lifecycle.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { deferred } from '../harness/index.js';

/**
 * The upstream lifecycle machine on a simulated clock: the delays (backoff, idle check) and what
 * idleness means are provided by each test, as each upstream provides its own.
 */
function start(options: { idle?: () => boolean; stopIdle?: () => void; idleCheck?: number } = {}) {
  const clock = new SimulatedClock();
  vi.useFakeTimers({ now: 0, toFake: ['Date'] });
  const machine = lifecycleMachine.provide({
    delays: { idleCheck: options.idleCheck ?? 1_000 },
    guards: { idle: () => options.idle?.() ?? false },
    actions: { stopIdle: () => options.stopIdle?.() },
  });
  const actor = createActor(machine, { clock }).start();
  /** Moves both clocks: the machine's timers and Date.now() its guards read. */
  const advance = (ms: number) => {
    vi.setSystemTime(Date.now() + ms);
    clock.increment(ms);
  };
  return { actor, advance, status: () => statusOf(actor.getSnapshot()) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('upstream lifecycle (upstream/lifecycle.ts)', () => {
  it('goes idle -> starting -> ready, and back to idle on a stop', () => {
    const { actor, status } = start();
    expect(status()).toBe('idle');
    actor.send({ type: 'START' });
    expect(status()).toBe('starting');
    actor.send({ type: 'STARTED' });
    expect(status()).toBe('ready');
    actor.send({ type: 'STOP' });
    expect(status()).toBe('idle');
  });

  it('backs off after failures as delayed transitions: at once, then 0.5 s, 1 s, ... up to 30 s', () => {
    expect([1, 2, 3, 4, 8, 20].map(backoffMs)).toEqual([0, 500, 1_000, 2_000, 30_000, 30_000]);
    const { actor, advance, status } = start();
    actor.send({ type: 'START' });
    actor.send({ type: 'FAILED' });
    // The first failure: a restart may come at once.
    actor.send({ type: 'START' });
    expect(status()).toBe('starting');
    actor.send({ type: 'FAILED' });
    expect(actor.getSnapshot().value).toEqual({ down: 'waiting' });
    expect(waitSeconds(actor.getSnapshot())).toBe(1);
    // Within the backoff a start is refused; the delayed transition ends the wait.
    actor.send({ type: 'START' });
    expect(status()).toBe('down');
    advance(499);
    expect(actor.getSnapshot().value).toEqual({ down: 'waiting' });
    advance(1);
    expect(actor.getSnapshot().value).toEqual({ down: 'retryable' });
    expect(waitSeconds(actor.getSnapshot())).toBe(0);
    actor.send({ type: 'START' });
    expect(status()).toBe('starting');
  });

  it('an answered call resets the backoff; a crash of a ready server counts as a failure', () => {
    const { actor, status } = start();
    actor.send({ type: 'START' });
    actor.send({ type: 'FAILED' });
    actor.send({ type: 'START' });
    actor.send({ type: 'STARTED' });
    expect(actor.getSnapshot().context.failures).toBe(1);
    actor.send({ type: 'ANSWERED' });
    expect(actor.getSnapshot().context.failures).toBe(0);
    actor.send({ type: 'FAILED' });
    expect(status()).toBe('down');
    expect(actor.getSnapshot().context.failures).toBe(1);
  });

  it('stops a ready server once its idle check finds it idle, and re-arms the check while it is busy', () => {
    let idle = false;
    const stopIdle = vi.fn();
    const { actor, advance, status } = start({ idle: () => idle, stopIdle, idleCheck: idleCheckMs(4_000) });
    actor.send({ type: 'START' });
    actor.send({ type: 'STARTED' });
    advance(1_000);
    advance(1_000);
    expect(status()).toBe('ready');
    expect(stopIdle).not.toHaveBeenCalled();
    idle = true;
    advance(1_000);
    expect(status()).toBe('idle');
    expect(stopIdle).toHaveBeenCalledTimes(1);
  });

  it('a disabled server is down without counting a failure', () => {
    const { actor, status } = start();
    actor.send({ type: 'DISABLED' });
    expect(status()).toBe('down');
    expect(actor.getSnapshot().context.failures).toBe(0);
  });
});

describe('an Upstream on its lifecycle', () => {
  it('stopped while it starts, it is idle (not down): its next call starts it afresh', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    // A server that never answers initialize.
    serverSide.onmessage = () => {};
    await serverSide.start();
    const upstream = new Upstream('slow', { connect: () => clientSide, startTimeoutMs: 60_000 });
    const statuses: string[] = [];
    const starting = deferred();
    upstream.onStatus = (u) => {
      statuses.push(u.status);
      if (u.status === 'starting') starting.resolve();
    };
    const started = upstream.start().then(
      () => 'started',
      (error: Error) => error.message,
    );
    await starting.promise;
    await upstream.stop();
    expect(await started).toMatch(/could not start upstream "slow"/);
    expect(upstream.status).toBe('idle');
    expect(statuses).toEqual(['starting', 'idle']);
  });
});

describe('an Upstream remembered as 2026-07-28, stopped while it starts', () => {
  /** An upstream the lock remembers as 2026-07-28 (its start skips the probe) whose server never answers. */
  function silentModern() {
    const opened: InMemoryTransport[] = [];
    const asked = deferred();
    const connect = async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      serverSide.onmessage = () => asked.resolve();
      await serverSide.start();
      opened.push(clientSide);
      return clientSide;
    };
    const upstream = new Upstream('slow-modern', { connect, startTimeoutMs: 60_000 });
    upstream.discovery = { kind: 'modern', discover: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'slow-modern', version: '1.0.0' } } as never };
    const starting = deferred();
    upstream.onStatus = (u) => {
      if (u.status === 'starting') starting.resolve();
    };
    const started = upstream.start().then(
      () => 'started',
      (error: Error) => error.message,
    );
    return { upstream, opened, started, starting: starting.promise, asked: asked.promise };
  }

  it('a stop while its transport is being made (a process spawning) closes that transport and ends the start', async () => {
    const { upstream, opened, started, starting } = silentModern();
    await starting;
    await upstream.stop();
    expect(await started).toMatch(/could not start upstream "slow-modern"/);
    expect(opened.length).toBe(1);
    expect(upstream.status).toBe('idle');
  });

  it('a stop while it lists opens no second connection (the re-probe of a remembered era is for a refused era, not a stop)', async () => {
    const { upstream, opened, started, asked } = silentModern();
    // Connected on the remembered era, waiting for its lists.
    await asked;
    await upstream.stop();
    expect(await started).toMatch(/could not start upstream "slow-modern"/);
    expect(opened.length, 'connections opened: a stop during the start must not lead to a fresh one').toBe(1);
    expect(upstream.status).toBe('idle');
  });
});

describe('a call cancelled while its upstream starts', () => {
  it('is never sent: the server does not run it, and the call fails as cancelled', async () => {
    const ran: string[] = [];
    const server = new McpServer({ name: 'writer', version: '1.0.0' });
    server.registerTool('write_note', { description: 'Writes a note.', inputSchema: {} }, () => {
      ran.push('write_note');
      return { content: [{ type: 'text', text: 'written' }] };
    });
    const gate = deferred();
    const upstream = new Upstream('writer', {
      connect: async () => {
        // A start that takes a while (a process spawning, npx installing).
        await gate.promise;
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        await server.connect(serverSide);
        return clientSide;
      },
    });
    const starting = deferred();
    upstream.onStatus = (u) => {
      if (u.status === 'starting') starting.resolve();
    };
    const controller = new AbortController();
    const call = upstream.call({ name: 'write_note', arguments: {} }, { signal: controller.signal }).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await starting.promise;
    // The client gives up while the server starts.
    controller.abort('user pressed stop');
    gate.resolve();
    expect(await call).toMatch(/cancelled/);
    expect(upstream.status).toBe('ready');
    // Answered after the cancelled call would have been: the server never ran it.
    expect(await upstream.call({ name: 'write_note', arguments: {} })).toMatchObject({ content: [{ text: 'written' }] });
    expect(ran).toEqual(['write_note']);
    await upstream.stop();
  });
});
