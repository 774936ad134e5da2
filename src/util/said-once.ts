import type { Logger } from './log.js';

/** Lines remembered as said, at most: past it the memory starts afresh (a line may be said again). */
const REMEMBERED = 10_000;

/**
 * Warnings every rebuild finds again (a tool or prompt left out for another's name), each said
 * once, by the first build that finds it: a rebuild says only what is new, and an upstream
 * re-listing fresh names cannot grow the memory (or stderr) for ever.
 */
export class SaidOnce {
  private readonly lines = new Set<string>();

  /** Says what of `built.leftOut` is new, and gives `built` back. */
  said<T extends { readonly leftOut: readonly string[] }>(built: T, logger: Logger): T {
    for (const line of built.leftOut) {
      if (this.lines.has(line)) continue;
      if (this.lines.size >= REMEMBERED) this.lines.clear();
      this.lines.add(line);
      logger.warn(line);
    }
    return built;
  }
}
