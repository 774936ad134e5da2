import type { ResolvedConfig } from '../config/resolve.js';
import { own } from '../util/own.js';

/*
 * The focus state of a caller, one pure reducer for both eras: a 2025 session folds its events
 * into it (focus_mode, search's discoveries) and keeps the result; a 2026-07-28 request stands in
 * the initial state of its mode and sends no event (its list may not change with a call). Pure
 * data and pure functions: any name is a mode name (dots, spaces), nothing is rebuilt per session,
 * and a reload keeps a state that still fits (restoreFocus).
 */

/** What visibility needs to know of a caller's focus: its mode and its own changes to it. */
export interface FocusState {
  mode: string;
  /** Groups added to the mode (focus_mode `enable_group`). */
  enabled: readonly string[];
  /** Groups removed from the mode (focus_mode `disable_group`). */
  disabled: readonly string[];
  /** Tool ids search made visible, least recently used first (at most `discovery.maxEnabled`). */
  discovered: readonly string[];
}

/** What changes a session's focus: a mode switch, a group enabled or disabled (focus_mode), tools search found. */
export type FocusEvent =
  | { type: 'FOCUS'; mode: string }
  | { type: 'ENABLE_GROUP'; group: string }
  | { type: 'DISABLE_GROUP'; group: string }
  | { type: 'DISCOVER'; tools: string[] };

/** What the reducer checks events against: the config's modes and groups, and the discovery cap. */
export type FocusRules = Pick<ResolvedConfig, 'modes' | 'groups' | 'maxDiscovered'>;

/** A mode's state before anything changed it. */
export function initialFocus(mode: string): FocusState {
  return { mode, enabled: [], disabled: [], discovered: [] };
}

/**
 * The state after `event`. An unknown mode or group changes nothing (the same object comes back:
 * callers compare by identity to know whether anything changed). A switch clears the group
 * changes and keeps what search discovered; enabling a group undoes its disabling and the other
 * way round; discovered tools stay up to the cap, the least recently found leaving first.
 */
export function nextFocus(state: FocusState, event: FocusEvent, rules: FocusRules): FocusState {
  switch (event.type) {
    case 'FOCUS':
      return own(rules.modes, event.mode) ? { ...state, mode: event.mode, enabled: [], disabled: [] } : state;
    case 'ENABLE_GROUP':
      if (!own(rules.groups, event.group)) return state;
      return { ...state, enabled: addOnce(state.enabled, event.group), disabled: state.disabled.filter((group) => group !== event.group) };
    case 'DISABLE_GROUP':
      if (!own(rules.groups, event.group)) return state;
      return { ...state, disabled: addOnce(state.disabled, event.group), enabled: state.enabled.filter((group) => group !== event.group) };
    case 'DISCOVER': {
      const kept = state.discovered.filter((id) => !event.tools.includes(id));
      const max = rules.maxDiscovered;
      return { ...state, discovered: max > 0 ? [...kept, ...event.tools].slice(-max) : [] };
    }
    default:
      return state;
  }
}

/**
 * The state kept across a config reload: the same when its mode and groups still exist, else
 * undefined (the caller starts afresh in its default mode).
 */
export function restoreFocus(state: FocusState, rules: Pick<FocusRules, 'modes' | 'groups'>): FocusState | undefined {
  if (!own(rules.modes, state.mode)) return undefined;
  return [...state.enabled, ...state.disabled].every((group) => own(rules.groups, group) !== undefined) ? state : undefined;
}

function addOnce(list: readonly string[], item: string): readonly string[] {
  return list.includes(item) ? list : [...list, item];
}
