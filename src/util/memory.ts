import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Catalogs at least this large trigger a compaction after loading or listing. */
export const LARGE_CATALOG = 2_000;

let gc: (() => void) | undefined | null;
let timer: NodeJS.Timeout | undefined;

/**
 * Asks V8 for one full garbage collection shortly after a burst of large transient allocations
 * (reading a 10,000-tool lock, answering its tools/list). Node never runs V8's idle-time GC, so
 * without this the burst's garbage stays resident for as long as the gateway is quiet.
 * Debounced: one collection per burst, off the hot path.
 */
export function compactSoon(delayMs = 250): void {
  if (timer) return;
  timer = setTimeout(() => {
    timer = undefined;
    collector()?.();
  }, delayMs);
  timer.unref();
}

function collector(): (() => void) | undefined {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  return gc ?? undefined;
}
