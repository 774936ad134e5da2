import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { boundedLines, MAX_UNREAD_LOG_BYTES, stderrLogger } from '../../src/util/log.js';
import { stalledPipe } from '../harness/index.js';

describe('log lines to a stderr nobody reads (util/log boundedLines)', () => {
  it('drops lines while more than the bound waits unread, then says how many went once it is read again', async () => {
    const { stream, lines, flush } = stalledPipe();
    const write = boundedLines(() => stream, 64 * 1024);
    // A stdio upstream's stderr relayed line by line (each cut at 4,000 characters): 10,000 of them are 40 MB.
    const line = `[lazytools] [noisy] ${'e'.repeat(3_990)}\n`;
    for (let i = 0; i < 10_000; i++) write(line);
    expect(stream.writableLength, 'bytes queued in memory').toBeLessThanOrEqual(64 * 1024 + line.length);
    flush();
    await new Promise<void>((resolve) => (stream.writableLength === 0 ? resolve() : stream.once('drain', resolve)));
    write('[lazytools] after\n');
    const kept = lines.filter((text) => text === line).length;
    expect(lines.at(-2)).toBe(`[lazytools] warning: ${10_000 - kept} log line(s) dropped: more than ${64 * 1024} bytes of them waited unread on stderr\n`);
    expect(lines.at(-1)).toBe('[lazytools] after\n');
  });

  // adv31: the count was said only before the next line written; a flood that stopped (an
  // upstream's burst, then quiet) left the reader never told that lines were lost.
  it('says the count once the reader catches up, with no line after the flood', async () => {
    const { stream, lines, flush } = stalledPipe();
    const write = boundedLines(() => stream, 64 * 1024);
    const line = `[lazytools] [noisy] ${'e'.repeat(3_990)}\n`;
    for (let i = 0; i < 100; i++) write(line);
    flush();
    await new Promise<void>((resolve) => (stream.writableLength === 0 ? resolve() : stream.once('drain', resolve)));
    const kept = lines.filter((text) => text === line).length;
    expect(kept).toBeLessThan(100);
    expect(lines.at(-1)).toBe(`[lazytools] warning: ${100 - kept} log line(s) dropped: more than ${64 * 1024} bytes of them waited unread on stderr\n`);
  });

  // adv31: an error of lazytools' own was dropped as the relayed flood was; the flood now leaves
  // room for errors (twice the bound), so the reader meets the error once it reads.
  it("keeps room for lazytools' errors past the flood of other lines", async () => {
    const { stream, lines, flush } = stalledPipe();
    const write = boundedLines(() => stream, 64 * 1024);
    const line = `[lazytools] [noisy] ${'e'.repeat(3_990)}\n`;
    for (let i = 0; i < 100; i++) write(line);
    write('[lazytools] error: the upstream "notes" ended: exit 1\n', true);
    for (let i = 0; i < 100; i++) write(line);
    expect(stream.writableLength).toBeLessThanOrEqual(64 * 1024 + 2 * line.length);
    flush();
    await new Promise<void>((resolve) => (stream.writableLength === 0 ? resolve() : stream.once('drain', resolve)));
    expect(lines).toContain('[lazytools] error: the upstream "notes" ended: exit 1\n');
    const kept = lines.filter((text) => text === line).length;
    expect(lines.at(-1)).toMatch(new RegExp(`^\\[lazytools\\] warning: ${200 - kept} log line\\(s\\) dropped`));
  });

  it("bounds the gateway's own logger: an upstream's stderr lines relayed to a pipe nobody reads", () => {
    const { stream } = stalledPipe();
    const real = Object.getOwnPropertyDescriptor(process, 'stderr') as PropertyDescriptor;
    Object.defineProperty(process, 'stderr', { value: stream, configurable: true });
    const later: string[] = [];
    try {
      for (let i = 0; i < 5_000; i++) stderrLogger.info(`[noisy] ${'e'.repeat(3_990)}`);
      // A reader again: the next line says how many went, which also leaves the module's count at
      // zero for the tests after this one (unit files share their modules).
      const reading = new Writable({ write: (chunk: Buffer, _encoding, callback) => void (later.push(chunk.toString()), callback()) });
      Object.defineProperty(process, 'stderr', { value: reading, configurable: true });
      stderrLogger.info('after');
    } finally {
      Object.defineProperty(process, 'stderr', real);
    }
    expect(stream.writableLength, '20 MB of lines written to a stalled stderr').toBeLessThanOrEqual(MAX_UNREAD_LOG_BYTES + 4_100);
    expect(later[0]).toMatch(/^\[lazytools\] warning: \d+ log line\(s\) dropped: more than \d+ bytes of them waited unread on stderr\n$/);
    expect(later[1]).toBe('[lazytools] after\n');
  });

  it('drops nothing where writes do not wait (a file, a terminal, a reader keeping up)', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const write = boundedLines(() => stream, 1024);
    for (let i = 0; i < 1_000; i++) write(`${'x'.repeat(100)}\n`);
    expect(lines.length).toBe(1_000);
  });
});
