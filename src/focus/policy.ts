import type { CatalogTool } from '../catalog/catalog.js';
import type { ResolvedConfig, ResolvedMode } from '../config/resolve.js';
import { UnknownNameError } from '../util/errors.js';
import { own } from '../util/own.js';

/**
 * The mode rules in one place. Every path that shows, enables or runs a tool asks here: the
 * list (visibleTools), direct calls and execute_tool (callRefusal), search_tools' enable
 * (mayEnable), focus_mode (switchRefusal), fixed endpoints and reloads (fixedModeGone).
 *
 * - read-only: a read-only mode shows and runs only tools annotated `readOnlyHint: true`;
 * - fixed mode: a session pinned to one mode (`serve --mode`, `/mcp/<mode>`) never leaves it,
 *   and nothing it does adds tools outside that mode;
 * - hiddenTools "reject": tools outside the session's visible set are not run, and search may
 *   show them but not add them; a mode switch (where allowed) is the way to reach them.
 */

/** What the rules need to know about a session. */
export interface PolicySubject {
  /** The session's current mode. */
  mode: string;
  /** Set when the session is pinned to one mode. */
  fixedMode: string | undefined;
  /** True when the tool is in the session's visible set (mode groups, overrides, discovered). */
  inMode(tool: CatalogTool): boolean;
}

type PolicyConfig = Pick<ResolvedConfig, 'modes' | 'hiddenTools'>;

/** The resolved mode of that name (own names only: "toString" is not a mode unless defined). */
export function modeNamed(config: Pick<ResolvedConfig, 'modes'>, name: string): ResolvedMode | undefined {
  return own(config.modes, name);
}

/** The mode, or an UnknownNameError with the closest names. */
export function requireMode(config: Pick<ResolvedConfig, 'modes'>, name: string): ResolvedMode {
  const mode = modeNamed(config, name);
  if (!mode) throw new UnknownNameError('mode', name, Object.keys(config.modes));
  return mode;
}

/** The read-only rule: may this mode show and run the tool at all? */
export function modeAllows(mode: Pick<ResolvedMode, 'readOnly'> | undefined, tool: Pick<CatalogTool, 'readOnly'>): boolean {
  return !mode?.readOnly || tool.readOnly;
}

/** True when the mode is read-only. */
export function isReadOnly(config: Pick<ResolvedConfig, 'modes'>, name: string): boolean {
  return modeNamed(config, name)?.readOnly ?? false;
}

/** Why the session may not run the tool now (direct call or execute_tool), or undefined. */
export function callRefusal(config: PolicyConfig, subject: PolicySubject, tool: CatalogTool): string | undefined {
  const mode = modeNamed(config, subject.mode);
  if (!mode) return `Mode "${subject.mode}" no longer exists; "${tool.exposedName}" is not available.`;
  if (!modeAllows(mode, tool))
    return `Mode "${mode.name}" is read-only and "${tool.exposedName}" may write (it is not annotated readOnlyHint: true, and its name or description does not show it only reads). ${whereElse(config, subject, tool)}`;
  if (config.hiddenTools === 'reject' && !subject.inMode(tool))
    return `"${tool.exposedName}" is not part of mode "${mode.name}" and this gateway rejects hidden tools. ${whereElse(config, subject, tool)}`;
  return undefined;
}

/**
 * May search add its hits to the session's list? Never on a fixed mode (its list does not vary),
 * never under hiddenTools "reject" (search shows, a mode switch reaches), never under proxy (no
 * list to add to).
 */
export function mayEnable(config: PolicyConfig, subject: PolicySubject, strategy: string): boolean {
  return strategy !== 'proxy' && subject.fixedMode === undefined && config.hiddenTools !== 'reject';
}

/** Why the session may not change its mode or groups, or undefined when it may. */
export function switchRefusal(subject: Pick<PolicySubject, 'fixedMode'>): string | undefined {
  if (subject.fixedMode === undefined) return undefined;
  return `This endpoint serves the fixed mode "${subject.fixedMode}" only; modes and groups cannot be changed here.`;
}

/** True when a session pinned to `fixedMode` can no longer be served by this config. */
export function fixedModeGone(config: Pick<ResolvedConfig, 'modes'>, fixedMode: string | undefined): boolean {
  return fixedMode !== undefined && modeNamed(config, fixedMode) === undefined;
}

/** The modes whose groups include the tool and whose rules allow it. */
export function modesWith(config: Pick<ResolvedConfig, 'modes'>, tool: CatalogTool): string[] {
  return Object.values(config.modes)
    .filter((mode) => modeAllows(mode, tool) && mode.groups.some((group) => tool.groups.includes(group)))
    .map((mode) => mode.name);
}

/** Where else the tool is reachable: other modes (switchable sessions) or nothing (fixed ones). */
function whereElse(config: PolicyConfig, subject: PolicySubject, tool: CatalogTool): string {
  if (subject.fixedMode !== undefined) return `This endpoint serves only mode "${subject.fixedMode}".`;
  const modes = modesWith(config, tool);
  return modes.length > 0 ? `Modes that include it: ${modes.join(', ')} (switch with focus_mode).` : 'No mode includes it.';
}
