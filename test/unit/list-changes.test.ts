import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/hub/gateway.js';
import { watchListChanges } from '../../src/handlers/list-changes.js';
import { referenceSources } from '../harness/index.js';

/** A gateway over the reference catalogs (as from a lock: no upstream process starts). */
async function gateway(rc: Record<string, unknown> = {}) {
  return new Gateway({ config: resolveConfig(parseConfig(rc)), locked: await referenceSources() });
}

describe('list changes for subscriptions/listen (handlers/list-changes watchListChanges)', () => {
  it('announces a reload that changes the tool lists, and stays silent for one that changes nothing', async () => {
    const gw = await gateway();
    const heard: string[] = [];
    const watch = watchListChanges(gw, { toolsChanged: () => heard.push('tools'), promptsChanged: () => heard.push('prompts'), resourcesChanged: () => heard.push('resources') });
    gw.rebuild();
    await gw.reload(resolveConfig(parseConfig({})));
    expect(heard).toEqual([]);
    await gw.reload(resolveConfig(parseConfig({ modes: { extra: { description: 'x', groups: ['security'] } } })));
    expect(heard).toEqual(['tools']);
    watch.stop();
    await gw.reload(resolveConfig(parseConfig({})));
    expect(heard).toEqual(['tools']);
    await gw.close();
  });

  it('hashes nothing while nobody listens, then announces the first change without comparing', async () => {
    const gw = await gateway();
    const heard: string[] = [];
    let listening = false;
    watchListChanges(gw, { toolsChanged: () => heard.push('tools'), promptsChanged: () => heard.push('prompts'), resourcesChanged: () => heard.push('resources') }, () => listening);
    await gw.reload(resolveConfig(parseConfig({ modes: { extra: { description: 'x', groups: ['security'] } } })));
    expect(heard).toEqual([]);
    listening = true;
    gw.rebuild();
    expect(heard).toEqual(['tools']);
    gw.rebuild();
    expect(heard).toEqual(['tools']);
    await gw.close();
  });

  it('reads the lists when a listen stream opens, so a rebuild that changed nothing after that stays silent', async () => {
    const gw = await gateway();
    const heard: string[] = [];
    let listening = false;
    const watch = watchListChanges(gw, { toolsChanged: () => heard.push('tools'), promptsChanged: () => heard.push('prompts'), resourcesChanged: () => heard.push('resources') }, () => listening);
    await gw.reload(resolveConfig(parseConfig({ modes: { extra: { description: 'x', groups: ['security'] } } })));
    watch.listenerOpens();
    listening = true;
    gw.rebuild();
    expect(heard).toEqual([]);
    await gw.reload(resolveConfig(parseConfig({})));
    expect(heard).toEqual(['tools']);
    watch.stop();
    await gw.close();
  });
});
