import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StdioFrontTransport } from '../../src/transports/stdio.js';

/** A stdout whose reader has stopped reading: writes are held until `flush`. */
function stalledOutput() {
  const held: Array<() => void> = [];
  let reading = false;
  const output = new Writable({
    highWaterMark: 16,
    write(_chunk, _encoding, callback) {
      if (reading) callback();
      else held.push(callback);
    },
  });
  /** The reader reads again: what was held and everything after it is taken. */
  const flush = () => {
    reading = true;
    for (const callback of held.splice(0)) callback();
  };
  return { output, flush };
}

const logLine = (i: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: `line ${i}` } });

describe('the stdio front transport (transports/stdio.ts) under a client that reads slowly', () => {
  it('waits for a drain with one listener, however many sends wait, and settles them all when it drains', async () => {
    const { output, flush } = stalledOutput();
    const transport = new StdioFrontTransport(new PassThrough(), output);
    await transport.start();
    const sends = Array.from({ length: 20 }, (_, i) => transport.send(logLine(i)));
    expect(output.listenerCount('drain'), 'drain listeners while 20 sends wait').toBeLessThanOrEqual(1);
    flush();
    await Promise.all(sends);
    expect(output.listenerCount('drain')).toBe(0);
    await transport.close();
  });

  it('settles the sends still waiting when it closes (an output that errored or went away never drains)', async () => {
    const { output } = stalledOutput();
    const transport = new StdioFrontTransport(new PassThrough(), output);
    await transport.start();
    const sends = Array.from({ length: 5 }, (_, i) => transport.send(logLine(i)));
    let settled = 0;
    for (const send of sends) void send.then(() => settled++);
    await transport.close();
    await Promise.all(sends);
    expect(settled).toBe(5);
    expect(output.listenerCount('drain')).toBe(0);
  });
});
