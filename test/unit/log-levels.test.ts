import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { LogLevels, specLevel } from '../../src/handlers/logging.js';
import { cleanupAfterEach, deferred, inMemoryClient, inProcessUpstream, namedToolsApp } from '../harness/index.js';

/**
 * An upstream's log line whose level is not one of the spec's eight ("warn", "FATAL", 3, none)
 * was passed on unchanged, and an SDK client validates the level against the spec's enum: the
 * whole line was dropped with an error on the client (fails on the old main: only the lines with
 * a spec level arrived). Now the level is the nearest spec level, the data is verbatim, and
 * stderr says so once per server and level.
 */

const cleanups = cleanupAfterEach();

describe('upstream log levels', () => {
  it('a line with a level outside the spec reaches the client with the nearest spec level, its data verbatim, noted once', async () => {
    const config = resolveConfig({ groups: { notes: { servers: ['notes'] } }, modes: { notes: { groups: ['notes'] } }, defaultMode: 'notes', strategy: 'hybrid' });
    const notes = namedToolsApp({ read_note: true }, { logging: true });
    const warnings: string[] = [];
    const logger = { info: () => {}, warn: (message: string) => warnings.push(message), error: () => {} };
    const gateway = new Gateway({ config, logger, upstreams: [inProcessUpstream('notes', notes)] });
    await gateway.start();
    cleanups.push(() => gateway.close());
    const heard: Array<{ level: string; data: unknown }> = [];
    const done = deferred();
    await inMemoryClient((t) => gateway.createSession({}).connect(t), {
      name: 'log-levels',
      cleanups,
      prepare: (c) =>
        c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
          heard.push({ level: n.params.level, data: n.params.data });
          if (n.params.data === 'last') done.resolve();
        }),
    });
    const send = (params: Record<string, unknown>) => notes.server.notification({ method: 'notifications/message', params } as never);
    const data = { text: 'disk 91% full', nested: [1, 'two'] };
    await send({ level: 'warn', data });
    await send({ level: 'warn', data: 'again' });
    await send({ level: 'FATAL', data: 'fatal' });
    await send({ level: 3, data: 'syslog 3' });
    await send({ level: 'x'.repeat(5000), data: 'unknown' });
    await send({ data: 'no level' });
    await send({ level: 'notice', data: 'last' });
    await done.promise;
    expect(heard).toEqual([
      { level: 'warning', data },
      { level: 'warning', data: 'again' },
      { level: 'critical', data: 'fatal' },
      { level: 'error', data: 'syslog 3' },
      { level: 'info', data: 'unknown' },
      { level: 'info', data: 'no level' },
      { level: 'notice', data: 'last' },
    ]);
    expect(warnings.filter((line) => line.includes('"warn"'))).toEqual(['upstream "notes" sent a log line with level "warn", not an MCP level: passed on as "warning"']);
    expect(warnings).toHaveLength(5);
    expect(Math.max(...warnings.map((line) => line.length)), 'a note quotes a bounded part of the level').toBeLessThan(200);
  });

  it('maps by case, prefix, syslog number and the vocabulary; keeps the spec levels', () => {
    expect(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].map((level) => specLevel(level))).toEqual(
      ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'].map((level) => ({ level, known: true })),
    );
    const mapped = (level: unknown) => specLevel(level).level;
    expect(['Warning', 'err', 'crit', 'emerg', 'information', 'trace', 'verbose', 'fatal', 'severe', 'log'].map(mapped)).toEqual(['warning', 'error', 'critical', 'emergency', 'info', 'debug', 'debug', 'critical', 'error', 'info']);
    expect([0, 7, 8, -1, 2.5, 'e', '', null, {}].map(mapped)).toEqual(['emergency', 'debug', 'info', 'info', 'info', 'info', 'info', 'info', 'info']);
  });

  // adv31: the notes were remembered up to 1,000 for all servers, then forgotten: an upstream
  // cycling through new level names (1,000 notifications a second pass its flood budget) had a
  // stderr line for each of them, for good, and made the other servers' notes repeat.
  it('notes a few unknown levels per server, then says once that it stops; other servers keep theirs', () => {
    const warnings: string[] = [];
    const levels = new LogLevels((message) => warnings.push(message));
    expect(levels.params('calm', { level: 'warn', data: 1 })).toEqual({ level: 'warning', data: 1 });
    for (let i = 0; i < 5_000; i++) expect(levels.params('noisy', { level: `odd-${i}`, data: i }).level).toBe('info');
    const noisy = warnings.filter((line) => line.includes('"noisy"'));
    expect(noisy.length).toBeLessThanOrEqual(40);
    expect(noisy.at(-1)).toMatch(/further log levels of upstream "noisy" that are not MCP levels are passed on without a note/);
    expect(levels.params('calm', { level: 'warn', data: 2 })).toEqual({ level: 'warning', data: 2 });
    expect(warnings.filter((line) => line.includes('"calm"'))).toHaveLength(1);
  });
});
