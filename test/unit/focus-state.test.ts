import { describe, expect, it } from 'vitest';
import { initialFocus, nextFocus, restoreFocus, type FocusEvent, type FocusRules, type FocusState } from '../../src/focus/state.js';
import { activeGroups, visibleTools } from '../../src/focus/visible.js';
import { referenceProject } from '../harness/index.js';

const rules: FocusRules = {
  modes: Object.fromEntries(['development', 'debugging', 'security_review', 'v1.2 review'].map((name) => [name, {}])) as FocusRules['modes'],
  groups: Object.fromEntries(['ci', 'code', 'files', 'security'].map((name) => [name, {}])) as FocusRules['groups'],
  maxDiscovered: 3,
};

/** The state after `events`, folded from development's initial state. */
function after(...events: FocusEvent[]): FocusState {
  return events.reduce((state, event) => nextFocus(state, event, rules), initialFocus('development'));
}

describe('focus state (one reducer for both eras)', () => {
  it('starts in a mode with no changes', () => {
    expect(initialFocus('development')).toEqual({ mode: 'development', enabled: [], disabled: [], discovered: [] });
  });

  it('switches modes (any name, dots and spaces included) and clears the group changes, keeping discoveries', () => {
    expect(after({ type: 'ENABLE_GROUP', group: 'ci' }, { type: 'DISCOVER', tools: ['s:a'] }, { type: 'FOCUS', mode: 'v1.2 review' })).toEqual({
      mode: 'v1.2 review',
      enabled: [],
      disabled: [],
      discovered: ['s:a'],
    });
  });

  it('enables and disables groups, each undoing the other', () => {
    expect(after({ type: 'DISABLE_GROUP', group: 'files' }, { type: 'ENABLE_GROUP', group: 'ci' }, { type: 'ENABLE_GROUP', group: 'ci' })).toMatchObject({ enabled: ['ci'], disabled: ['files'] });
    expect(after({ type: 'DISABLE_GROUP', group: 'files' }, { type: 'ENABLE_GROUP', group: 'files' })).toMatchObject({ enabled: ['files'], disabled: [] });
  });

  it('keeps discovered tools up to the cap, least recently found leaving first', () => {
    expect(after({ type: 'DISCOVER', tools: ['s:a', 's:b'] }, { type: 'DISCOVER', tools: ['s:c', 's:a'] }, { type: 'DISCOVER', tools: ['s:d'] }).discovered).toEqual(['s:c', 's:a', 's:d']);
  });

  it('returns the same state for unknown modes, groups and events (callers compare by identity)', () => {
    const start = initialFocus('development');
    const bad: FocusEvent[] = [
      { type: 'FOCUS', mode: 'nope' },
      { type: 'FOCUS', mode: 'toString' },
      { type: 'ENABLE_GROUP', group: 'nope' },
      { type: 'DISABLE_GROUP', group: '__proto__' },
      { type: 'UNKNOWN' } as unknown as FocusEvent,
    ];
    for (const event of bad) expect(nextFocus(start, event, rules)).toBe(start);
  });

  it('is kept across a reload only while its mode and groups still exist', () => {
    const state = after({ type: 'FOCUS', mode: 'debugging' }, { type: 'ENABLE_GROUP', group: 'security' });
    expect(restoreFocus(state, rules)).toBe(state);
    expect(restoreFocus(state, { modes: { development: rules.modes.development! }, groups: rules.groups })).toBeUndefined();
    expect(restoreFocus(state, { modes: rules.modes, groups: { ci: rules.groups.ci! } })).toBeUndefined();
  });
});

describe('visibleTools', () => {
  it('applies mode groups, overrides, discovered tools and alwaysVisible', async () => {
    const { config, catalog } = await referenceProject({ alwaysVisible: ['memory:read_graph'] });
    const base: FocusState = { mode: 'security_review', enabled: [], disabled: [], discovered: [] };
    const names = (focus: FocusState) => visibleTools(catalog, config, focus).map((t) => t.id);
    expect(names(base)).toContain('github:list_dependabot_alerts');
    expect(names(base)).toContain('memory:read_graph');
    expect(names({ ...base, disabled: ['security'] })).not.toContain('github:list_dependabot_alerts');
    expect(names({ ...base, enabled: ['ci'] })).toContain('github:actions_list');
    expect(names({ ...base, enabled: ['ci'] })).not.toContain('github:actions_run_trigger');
    expect(names({ ...base, discovered: ['github:list_gists'] })).toContain('github:list_gists');
    expect(activeGroups(config, { ...base, enabled: ['ci'], disabled: ['code'] })).toEqual(['security', 'context', 'local_code', 'access', 'ci']);
    expect(visibleTools(catalog, config, { ...base, mode: 'missing' })).toEqual([]);
  });
});
