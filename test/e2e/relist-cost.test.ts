import { describe, expect, it } from 'vitest';
import { StdioUpstreamTransport } from '../../src/upstream/stdio-transport.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { EventCounter, FIXTURES, ROOT } from '../harness/index.js';

/**
 * A re-list is paced by what reading its pages cost the gateway, not only by its rebuild
 * (flood.ts relistGap): an upstream answering tools/list with one page of megabytes and announcing
 * a change right after each answer (raw-server.mjs fat-list) was re-listed every ~500 ms plus the
 * list's own time, its pages parsed each time: the event loop held ~2 s of every ~3.7 s at 48 MiB.
 */

describe('an upstream whose every list is one page of megabytes, announcing a change after each', () => {
  it('is re-listed at a pace that leaves the event loop mostly idle', async () => {
    const upstream = new Upstream('fat', {
      connect: () =>
        new StdioUpstreamTransport({
          command: process.execPath,
          args: [FIXTURES.rawServer, 'fat-list'],
          env: { ...process.env, RAW_JUNK_MB: '24' } as Record<string, string>,
          cwd: ROOT,
          onStderr: () => {},
        }),
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    const relisted = new EventCounter();
    let since: ReturnType<typeof performance.eventLoopUtilization> | undefined;
    upstream.onToolsChanged = () => {
      // The share is counted from the end of the first re-list to the end of the fourth: three paced rounds.
      if (relisted.count === 0) since = performance.eventLoopUtilization();
      relisted.hit();
    };
    try {
      await upstream.start();
      await relisted.reached(4);
      const share = performance.eventLoopUtilization(since).utilization;
      // Unpaced by the lists' cost, the share was 0.5 to 0.8 (each list's parse, then 500 ms).
      expect(share, 'event loop utilization across three re-lists').toBeLessThan(0.3);
    } finally {
      await upstream.stop();
    }
  });
});
