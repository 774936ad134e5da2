import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { watchListChanges } from '../../src/handlers/list-changes.js';
import { referenceSources } from '../harness/index.js';

/** A gateway over the reference catalogs (as from a lock: no upstream process starts). */
async function gateway(rc: Record<string, unknown> = {}) {
  return new Gateway({ config: resolveConfig(parseConfig(rc)), locked: await referenceSources() });
}

/** A notifier that records what it was told, in order. */
function recorder(heard: string[]) {
  return { toolsChanged: () => heard.push('tools'), promptsChanged: () => heard.push('prompts'), resourcesChanged: () => heard.push('resources') };
}

/** A reload that adds a mode: every 2026-07-28 tool list's sources change. */
const ADD_MODE = { modes: { extra: { description: 'x', groups: ['security'] } } };

/** A watcher while nobody listens, after a reload that changed the lists (unheard); `listen()` opens a stream. */
async function idleWatch() {
  const gw = await gateway();
  const heard: string[] = [];
  let listening = false;
  const watch = watchListChanges(gw, recorder(heard), () => listening);
  await gw.reload(resolveConfig(parseConfig(ADD_MODE)));
  expect(heard).toEqual([]);
  return { gw, heard, watch, listen: () => void (listening = true) };
}

describe('list changes for subscriptions/listen (handlers/list-changes watchListChanges)', () => {
  it('announces a reload that changes the tool lists, and stays silent for one that changes nothing', async () => {
    const gw = await gateway();
    const heard: string[] = [];
    const watch = watchListChanges(gw, recorder(heard));
    gw.rebuild();
    await gw.reload(resolveConfig(parseConfig({})));
    expect(heard).toEqual([]);
    await gw.reload(resolveConfig(parseConfig(ADD_MODE)));
    expect(heard).toEqual(['tools']);
    watch.stop();
    await gw.reload(resolveConfig(parseConfig({})));
    expect(heard).toEqual(['tools']);
    await gw.close();
  });

  it('hashes nothing while nobody listens, then announces the first change without comparing', async () => {
    const { gw, heard, listen } = await idleWatch();
    listen();
    gw.rebuild();
    expect(heard).toEqual(['tools']);
    gw.rebuild();
    expect(heard).toEqual(['tools']);
    await gw.close();
  });

  it('reads the lists when a listen stream opens, so a rebuild that changed nothing after that stays silent', async () => {
    const { gw, heard, watch, listen } = await idleWatch();
    watch.listenerOpens();
    listen();
    gw.rebuild();
    expect(heard).toEqual([]);
    await gw.reload(resolveConfig(parseConfig({})));
    expect(heard).toEqual(['tools']);
    watch.stop();
    await gw.close();
  });
});
