import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { createFocusMachine, focusState, restorableSnapshot, type FocusEvent, type FocusState } from '../../src/focus/machine.js';
import { activeGroups, visibleTools } from '../../src/focus/visible.js';
import { referenceProject } from '../harness/index.js';

const options = { modes: ['development', 'debugging', 'security_review'], groups: ['ci', 'code', 'files', 'security'], defaultMode: 'development', maxDiscovered: 3 };

function start() {
  const changed = vi.fn();
  const actor = createActor(createFocusMachine(options).provide({ actions: { changed } })).start();
  return { actor, changed, state: () => focusState(actor.getSnapshot()) };
}

describe('focus machine', () => {
  it('starts in the default mode with no overrides', () => {
    const { state } = start();
    expect(state()).toEqual({ mode: 'development', enabled: [], disabled: [], discovered: [] });
  });

  it('switches modes and clears the session overrides', () => {
    const { actor, state, changed } = start();
    actor.send({ type: 'ENABLE_GROUP', group: 'ci' });
    actor.send({ type: 'FOCUS', mode: 'debugging' });
    expect(state()).toMatchObject({ mode: 'debugging', enabled: [], disabled: [] });
    expect(changed).toHaveBeenCalledTimes(2);
  });

  it('enables and disables groups, each undoing the other', () => {
    const { actor, state } = start();
    actor.send({ type: 'DISABLE_GROUP', group: 'files' });
    actor.send({ type: 'ENABLE_GROUP', group: 'ci' });
    actor.send({ type: 'ENABLE_GROUP', group: 'ci' });
    expect(state()).toMatchObject({ enabled: ['ci'], disabled: ['files'] });
    actor.send({ type: 'ENABLE_GROUP', group: 'files' });
    expect(state()).toMatchObject({ enabled: ['ci', 'files'], disabled: [] });
  });

  it('keeps discovered tools up to the cap, least recently used leaving first', () => {
    const { actor, state } = start();
    actor.send({ type: 'DISCOVER', tools: ['s:a', 's:b'] });
    actor.send({ type: 'DISCOVER', tools: ['s:c', 's:a'] });
    actor.send({ type: 'DISCOVER', tools: ['s:d'] });
    expect(state().discovered).toEqual(['s:c', 's:a', 's:d']);
  });

  it('ignores unknown modes and groups without reaching an error status', () => {
    const { actor, state, changed } = start();
    const bad: FocusEvent[] = [
      { type: 'FOCUS', mode: 'nope' },
      { type: 'ENABLE_GROUP', group: 'nope' },
      { type: 'DISABLE_GROUP', group: '' },
      { type: 'UNKNOWN' } as unknown as FocusEvent,
    ];
    for (const event of bad) actor.send(event);
    expect(actor.getSnapshot().status).toBe('active');
    expect(state()).toEqual({ mode: 'development', enabled: [], disabled: [], discovered: [] });
    expect(changed).not.toHaveBeenCalled();
  });

  it('restores a persisted snapshot only while it fits the config', () => {
    const { actor } = start();
    actor.send({ type: 'FOCUS', mode: 'debugging' });
    actor.send({ type: 'ENABLE_GROUP', group: 'security' });
    const persisted = actor.getPersistedSnapshot();
    expect(restorableSnapshot(persisted, options)).toBe(persisted);
    const restored = createActor(createFocusMachine(options), { snapshot: restorableSnapshot(persisted, options) as never }).start();
    expect(focusState(restored.getSnapshot())).toMatchObject({ mode: 'debugging', enabled: ['security'] });
    expect(restorableSnapshot(persisted, { modes: ['development'], groups: options.groups })).toBeUndefined();
    expect(restorableSnapshot(persisted, { modes: options.modes, groups: ['ci'] })).toBeUndefined();
    expect(restorableSnapshot({ value: 'debugging' }, options)).toBeUndefined();
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
