import { createHash } from 'node:crypto';
import type { Gateway } from '../../hub/gateway.js';

/** Where list changes go: the HTTP handler's notifier, or a stdio connection's server. */
export interface ListNotifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
}

const digests = new WeakMap<object, string>();

/** A digest of one definition object, cached: the catalog keeps unchanged definitions across rebuilds. */
function digestOf(item: object): string {
  let digest = digests.get(item);
  if (digest === undefined) {
    digest = createHash('sha1').update(JSON.stringify(item)).digest('base64');
    digests.set(item, digest);
  }
  return digest;
}

/**
 * What every 2026-07-28 tool list is built from: the modes and strategy settings of the config,
 * and each catalog tool (its name, groups, read-only verdict and definition). Two equal
 * fingerprints mean no mode's list changed, whoever asks.
 */
function toolsFingerprint(gateway: Gateway): string {
  const { modes, alwaysVisible, strategy, defaultMode, variants } = gateway.config;
  const hash = createHash('sha1').update(JSON.stringify({ modes, alwaysVisible, strategy, defaultMode, variants }));
  for (const tool of gateway.catalog.tools) hash.update(`${tool.exposedName}\n${tool.groups.join(',')}\n${tool.readOnly}\n${digestOf(tool.listed)}\n`);
  return hash.digest('base64');
}

function listFingerprint(items: readonly object[]): string {
  const hash = createHash('sha1');
  for (const item of items) hash.update(`${digestOf(item)}\n`);
  return hash.digest('base64');
}

/**
 * Tells open subscriptions/listen streams when a list legitimately changed: an rc reload, an
 * upstream's list change, a lazily started upstream whose tools drifted from the lock. Each kind is
 * announced only when its content differs from the last announced one (a rebuild that changed
 * nothing stays silent). With `listening`, nothing is hashed while nobody listens (a 10,000-tool
 * catalog costs a hash pass): the first change after that is announced without comparing.
 * Returns the function that stops watching.
 */
export function watchListChanges(gateway: Gateway, notifier: ListNotifier, listening?: () => boolean): () => void {
  let tools: string | undefined;
  let prompts: string | undefined;
  let resources: string | undefined;
  if (!listening) {
    tools = toolsFingerprint(gateway);
    prompts = listFingerprint(gateway.prompts().list);
    resources = listFingerprint([...gateway.resources().resources, ...gateway.resources().templates]);
  }
  const listener = (kind: 'tools' | 'prompts' | 'resources') => {
    if (listening && !listening()) {
      tools = prompts = resources = undefined;
      return;
    }
    if (kind === 'tools') {
      const next = toolsFingerprint(gateway);
      if (next !== tools) {
        tools = next;
        notifier.toolsChanged();
      }
    } else if (kind === 'prompts') {
      const next = listFingerprint(gateway.prompts().list);
      if (next !== prompts) {
        prompts = next;
        notifier.promptsChanged();
      }
    } else {
      const index = gateway.resources();
      const next = listFingerprint([...index.resources, ...index.templates]);
      if (next !== resources) {
        resources = next;
        notifier.resourcesChanged();
      }
    }
  };
  gateway.listChangeListeners.add(listener);
  return () => gateway.listChangeListeners.delete(listener);
}
