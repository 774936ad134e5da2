import type { Upstream } from '../upstream/upstream.js';
import type { Logger } from '../util/log.js';
import type { ServerState } from '../handlers/caller.js';
import { counted } from '../util/plural.js';
import { shownName } from '../config/secrets.js';


/**
 * The gateway's initial start of its upstreams and what became of each: the fronts hold
 * requests that read the catalog until it settled (`ready`), so a first tools/list holds every
 * server that could start; each start is waited on for at most its start timeout, and a server
 * that failed or timed out is reported (log, states) and no longer waited on.
 */
export class InitialStarts {
  /** True once every initial start came up, failed or timed out (readiness). */
  settled = false;
  private running: Promise<void> | undefined;
  private readonly starts = new Map<string, { state: 'starting' | 'up' | 'failed' | 'lazy'; reason?: string }>();

  constructor(private readonly logger: Logger) {}

  /**
   * Starts `eager` (once: later calls return the same promise); `lazy` ones (from the lock)
   * start on their first call. `where` prefixes a disabled server's error (the rc file).
   */
  run(eager: readonly Upstream[], lazy: readonly Upstream[], where: string | undefined, lazyNote: (upstream: Upstream) => string): Promise<void> {
    this.running ??= (async () => {
      for (const upstream of lazy) this.starts.set(upstream.name, { state: 'lazy' });
      for (const upstream of eager) this.starts.set(upstream.name, { state: 'starting' });
      await Promise.all(eager.map((upstream) => this.startBounded(upstream, where)));
      for (const upstream of lazy) this.logger.info(lazyNote(upstream));
      this.settled = true;
    })();
    return this.running;
  }

  /** The initial start while it runs, else undefined (nothing to wait for). */
  ready(): Promise<void> | undefined {
    return this.settled ? undefined : this.running;
  }

  /** A server came up (a late start, or a first call after a failed one): no longer "failed". */
  cameUp(name: string): void {
    if (this.starts.has(name)) this.starts.set(name, { state: 'up' });
  }

  /**
   * Each server: `up`, `down` (was up, then crashed), `failed` (its initial start failed or timed
   * out, with why), `lazy` (from the lock or stopped while idle: starts on its next call) or
   * `starting`.
   */
  states(upstreams: Iterable<Upstream>): ServerState[] {
    return [...upstreams].map((upstream) => {
      const initial = this.starts.get(upstream.name);
      if (upstream.status === 'ready') return { name: upstream.name, state: 'up' };
      if (initial?.state === 'failed') return { name: upstream.name, state: 'failed', reason: initial.reason ?? upstream.lastError };
      if (upstream.status === 'starting') return { name: upstream.name, state: 'starting' };
      if (upstream.status === 'down') return { name: upstream.name, state: 'down', reason: upstream.lastError ?? 'unavailable' };
      return { name: upstream.name, state: 'lazy', ...(initial?.state === 'up' ? { reason: 'stopped while idle; starts on the next call' } : {}) };
    });
  }

  /** One upstream's initial start, waited on for at most its start timeout. */
  private async startBounded(upstream: Upstream, where: string | undefined): Promise<void> {
    try {
      await upstream.startWithin();
      this.starts.set(upstream.name, { state: 'up' });
      this.logger.info(`${shownName(upstream.name)}: ${counted(upstream.tools.length, 'tool')}`);
    } catch (error) {
      const reason = (error as Error).message;
      this.starts.set(upstream.name, { state: 'failed', reason });
      const file = upstream.disabledReason !== undefined && where ? `${where}: ` : '';
      this.logger.error(`${file}${reason}; serving the other servers without it`);
    }
  }
}
