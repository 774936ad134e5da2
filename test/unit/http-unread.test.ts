import { describe, expect, it } from 'vitest';
import { MAX_UNREAD_BYTES, MAX_UNREAD_TOTAL, MIN_UNREAD_BYTES, unreadBound } from '../../src/transports/http-unread.js';

/**
 * What one HTTP session may leave unread before notifications to it are dropped: 8 MiB alone,
 * a share of 64 MiB when many are open. With a fixed 8 MiB, the front's default 1,000 sessions,
 * each stalled under a logging upstream, could hold 8 GiB.
 */
describe('unreadBound (transports/http-unread)', () => {
  it('is the whole per-session bound while few sessions are open', () => {
    for (const sessions of [0, 1, 2, 8]) expect(unreadBound(sessions)).toBe(MAX_UNREAD_BYTES);
  });

  it('keeps all sessions together within the front total as they multiply, never under the floor', () => {
    for (const sessions of [9, 50, 500, 1_000]) {
      expect(unreadBound(sessions)).toBeLessThan(MAX_UNREAD_BYTES);
      expect(unreadBound(sessions) * sessions).toBeLessThanOrEqual(MAX_UNREAD_TOTAL);
    }
    expect(unreadBound(5_000)).toBe(MIN_UNREAD_BYTES);
  });
});
