/**
 * Hands a 2025 HTTP session's incoming messages on one per turn of the event loop when they come
 * together: a JSON-RPC batch (up to 100 requests in one POST). The SDK hands a read's messages
 * over in one loop and runs each handler as a microtask, so a batch ran whole before anything
 * else: 100 focus_mode switches over 3,000 tools held every other client's requests for about
 * 850 ms, each POST of them again. (Over stdio the one client waits only on itself.) A message that
 * comes alone is handed on at once; one that comes while others wait queues behind them (order
 * is kept).
 */
export function pacedIntake<M, E>(handle: (message: M, extra: E) => void): (message: M, extra: E) => void {
  const waiting: Array<[M, E]> = [];
  // True from a message's hand-over until the current run of code (its read) ends.
  let sameRead = false;
  const next = () => {
    const item = waiting.shift();
    if (!item) return;
    handle(item[0], item[1]);
    if (waiting.length > 0) setImmediate(next);
  };
  return (message, extra) => {
    if (sameRead || waiting.length > 0) {
      if (waiting.push([message, extra]) === 1) setImmediate(next);
      return;
    }
    sameRead = true;
    queueMicrotask(() => (sameRead = false));
    handle(message, extra);
  };
}
