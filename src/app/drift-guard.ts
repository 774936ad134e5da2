import { checkDrift, checkProfileDrift, driftMessages } from '../catalog/drift.js';
import type { ProfileContent } from '../catalog/profile.js';
import type { ServerTools, ToolDefinition } from '../catalog/types.js';
import type { Logger } from '../util/log.js';
import type { Upstream } from '../upstream/upstream.js';
import type { UpstreamPrimitives } from '../upstream/primitives.js';

/** How far a profile drift line names its items before it counts the rest. */
const NAMED_ITEMS = 3;
/** Drifted tools of one server named a line each per check; the rest are counted in one line. */
export const DRIFT_LINES = 20;
/**
 * Drift lines remembered as said: past this the memory starts afresh (a line may be said again).
 * An upstream re-listing fresh tool names twice a second otherwise grew it (and stderr) for ever.
 */
export const REPORTED_LINES = 10_000;

/**
 * The gateway's side of drift checking (catalog/drift.ts): what each upstream may show clients,
 * checked against the lock, with every drift reported once. With rc `pin: true`, a tool,
 * instruction, prompt or resource that differs from the lock, or that the lock lacks, is held
 * back, and so is everything of a server the lock does not hold (never served unpinned silently).
 */
export class DriftGuard {
  /** Drift already logged (once per message). */
  private readonly reported = new Set<string>();

  constructor(
    private readonly locked: ReadonlyMap<string, ServerTools>,
    private readonly logger: Logger,
  ) {}

  /** What the lock knows of a server (its profile: capabilities, prompts, ...) stands in for it until it starts. */
  seed(upstream: Upstream): void {
    const profile = this.locked.get(upstream.name)?.profile;
    if (profile) upstream.seed(profile);
  }

  /** An upstream's live tools that may be served; the held-back ones are named in `held` with why. */
  tools(upstream: Upstream, pin: boolean, held: Map<string, string>): readonly ToolDefinition[] {
    const locked = this.locked.get(upstream.name);
    if (!locked) {
      if (!pin || upstream.tools.length === 0) return upstream.tools;
      const message = `server "${upstream.name}" is not in the lock: its tools are held back (rc pin: true) until \`lazytools lock\` records them`;
      for (const tool of upstream.tools) held.set(`${upstream.name}:${tool.name}`, message).set(tool.name, message);
      this.report(message);
      return [];
    }
    const check = checkDrift(upstream.tools, locked, pin);
    let named = 0;
    let unnamed = 0;
    for (const { name, message } of driftMessages(upstream.name, check, pin)) {
      if (pin) held.set(`${upstream.name}:${name}`, message).set(name, message);
      if (this.reported.has(message)) continue;
      if (named < DRIFT_LINES) {
        named++;
        this.report(message);
      } else unnamed++;
    }
    if (unnamed > 0)
      this.report(`server "${upstream.name}": ${unnamed} more tools differ from the lock or are not in it${pin ? ' (held back, rc pin: true)' : ''}; \`lazytools lock --check\` names each`);
    return check.tools;
  }

  /**
   * What clients are shown of an upstream's instructions, prompts and resources: with `pin`, only
   * what the lock holds as it is (nothing of a server the lock lacks). Drift is reported in one
   * line per server and change.
   */
  profile(upstream: Upstream, pin: boolean): ProfileContent {
    const live: ProfileContent = { instructions: upstream.instructions, prompts: upstream.primitives.prompts, resources: upstream.primitives.resources, resourceTemplates: upstream.primitives.templates };
    const locked = this.locked.get(upstream.name);
    if (!locked && !pin) return live;
    const check = checkProfileDrift(live, locked ? (locked.profile ?? {}) : undefined, pin);
    const drift = [...check.changed.map((key) => `${key} (changed)`), ...check.added.map((key) => `${key} (new)`)];
    if (drift.length > 0) {
      const named = drift.slice(0, NAMED_ITEMS).join(', ') + (drift.length > NAMED_ITEMS ? ` and ${drift.length - NAMED_ITEMS} more` : '');
      const why = locked ? `${named} differ from the lock` : `is not in the lock: ${named}`;
      this.report(`server "${upstream.name}": ${why}${pin ? '; held back (rc pin: true) until `lazytools lock` records them' : '; run `lazytools lock` after reviewing them'}`);
    }
    return check.served;
  }

  /** The primitives a client may list of an upstream (see profile). */
  primitives(upstream: Upstream, pin: boolean): { name: string; primitives: UpstreamPrimitives } {
    const served = this.profile(upstream, pin);
    if (served.prompts === upstream.primitives.prompts && served.resources === upstream.primitives.resources && served.resourceTemplates === upstream.primitives.templates) return upstream;
    return { name: upstream.name, primitives: { prompts: served.prompts ?? [], resources: served.resources ?? [], templates: served.resourceTemplates ?? [] } };
  }

  private report(message: string): void {
    if (this.reported.has(message)) return;
    if (this.reported.size >= REPORTED_LINES) this.reported.clear();
    this.reported.add(message);
    this.logger.warn(message);
  }
}
