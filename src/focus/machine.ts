import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { UnknownNameError } from '../util/errors.js';

/**
 * Per-session overrides on top of the current mode. `enabled`/`disabled` are groups (focus_mode's
 * `enable_group`/`disable_group`); tools search adds are `discovered` (capped by the rc's
 * `discovery.maxEnabled`, `maxDiscovered` here).
 */
export interface FocusContext {
  /** Groups added to the mode for this session. */
  enabled: string[];
  /** Groups removed from the mode for this session. */
  disabled: string[];
  /** Tool ids search made visible, least recently used first. */
  discovered: string[];
}

export type FocusEvent =
  | { type: 'FOCUS'; mode: string }
  | { type: 'ENABLE_GROUP'; group: string }
  | { type: 'DISABLE_GROUP'; group: string }
  | { type: 'DISCOVER'; tools: string[] };

export interface FocusMachineOptions {
  modes: readonly string[];
  groups: readonly string[];
  defaultMode: string;
  /** Cap on discovered tools; the least recently used leave first (default 20). */
  maxDiscovered?: number;
}

const emptyContext = (): FocusContext => ({ enabled: [], disabled: [], discovered: [] });

/**
 * The focus machine of one session, built from the resolved modes: one state per mode, the
 * context holds the session's group overrides and search-discovered tools. Unknown modes and
 * groups are refused by guards, so the actor stays where it was and never reaches an error
 * status. Every accepted event runs the named action `changed`, which the gateway provides to
 * recompute visibility (tests may `.provide()` a fake).
 *
 * @example
 * const machine = createFocusMachine({ modes: ['development', 'debugging'], groups: ['ci'], defaultMode: 'development' });
 * const actor = createActor(machine).start();
 * actor.send({ type: 'FOCUS', mode: 'debugging' });
 */
export function createFocusMachine(options: FocusMachineOptions) {
  const groups = new Set(options.groups);
  // xstate would accept an initial state it does not have and crash on its first timer.
  if (!options.modes.includes(options.defaultMode)) throw new UnknownNameError('mode', options.defaultMode, options.modes);
  const maxDiscovered = options.maxDiscovered ?? 20;
  return setup({
    types: { context: {} as FocusContext, events: {} as FocusEvent },
    guards: {
      isMode: ({ event }, params: { mode: string }) => event.type === 'FOCUS' && event.mode === params.mode,
      isKnownGroup: ({ event }) => (event.type === 'ENABLE_GROUP' || event.type === 'DISABLE_GROUP') && groups.has(event.group),
    },
    actions: {
      clearOverrides: assign({ enabled: () => [], disabled: () => [] }),
      enableGroup: assign(({ context, event }) => {
        if (event.type !== 'ENABLE_GROUP') return {};
        return { enabled: addOnce(context.enabled, event.group), disabled: context.disabled.filter((g) => g !== event.group) };
      }),
      disableGroup: assign(({ context, event }) => {
        if (event.type !== 'DISABLE_GROUP') return {};
        return { disabled: addOnce(context.disabled, event.group), enabled: context.enabled.filter((g) => g !== event.group) };
      }),
      discover: assign(({ context, event }) => {
        if (event.type !== 'DISCOVER') return {};
        const kept = context.discovered.filter((id) => !event.tools.includes(id));
        return { discovered: maxDiscovered > 0 ? [...kept, ...event.tools].slice(-maxDiscovered) : [] };
      }),
      changed: () => {},
    },
  }).createMachine({
    id: 'focus',
    initial: options.defaultMode,
    context: emptyContext,
    states: Object.fromEntries(options.modes.map((mode) => [mode, {}])),
    on: {
      FOCUS: options.modes.map((mode) => ({
        guard: { type: 'isMode' as const, params: { mode } },
        target: `.${mode}`,
        actions: ['clearOverrides' as const, 'changed' as const],
      })),
      ENABLE_GROUP: { guard: 'isKnownGroup', actions: ['enableGroup', 'changed'] },
      DISABLE_GROUP: { guard: 'isKnownGroup', actions: ['disableGroup', 'changed'] },
      DISCOVER: { actions: ['discover', 'changed'] },
    },
  });
}

export type FocusMachine = ReturnType<typeof createFocusMachine>;
export type FocusActor = ActorRefFrom<FocusMachine>;
export type FocusSnapshot = SnapshotFrom<FocusMachine>;

/** What visibility needs from a focus snapshot. */
export interface FocusState {
  mode: string;
  enabled: readonly string[];
  disabled: readonly string[];
  discovered: readonly string[];
}

/** The plain view of a machine snapshot. */
export function focusState(snapshot: FocusSnapshot): FocusState {
  return { mode: String(snapshot.value), ...snapshot.context };
}

/**
 * Checks a persisted snapshot (`actor.getPersistedSnapshot()`) against the current modes and
 * groups. Returns it when it still fits, `undefined` when the config changed under it (the
 * caller then starts fresh in the default mode).
 */
export function restorableSnapshot(persisted: unknown, options: Pick<FocusMachineOptions, 'modes' | 'groups'>): unknown {
  if (typeof persisted !== 'object' || persisted === null) return undefined;
  const { value, context, status } = persisted as { value?: unknown; context?: Partial<FocusContext>; status?: unknown };
  if (status !== 'active' || typeof value !== 'string' || !options.modes.includes(value)) return undefined;
  if (!context || !Array.isArray(context.enabled) || !Array.isArray(context.disabled) || !Array.isArray(context.discovered)) return undefined;
  const known = new Set(options.groups);
  if (![...context.enabled, ...context.disabled].every((group) => typeof group === 'string' && known.has(group))) return undefined;
  return persisted;
}

function addOnce(list: string[], item: string): string[] {
  return list.includes(item) ? list : [...list, item];
}
