import { createHash } from 'node:crypto';
import type { ToolDefinition } from '../catalog/catalog.js';
import type { ListKind } from '../upstream/upstream.js';
import type { CatalogHub, RoutingContext } from './caller.js';

/*
 * List-change detection for both eras, one home: a 2025 session's visible tools (callers/session)
 * and groups (handlers/groups), and the lists 2026-07-28 `subscriptions/listen` streams hear
 * about (watchListChanges, used by transports/http-modern and transports/stdio-eras;
 * transports/groups-listen) go through one AnnouncedList each, so "list_changed only when the
 * list a client sees changed" is decided in one place.
 */

/**
 * The last state of one list a client was told about. `changed()` is the one test every
 * list_changed goes through: it reads the list, and answers true (remembering it) when it differs
 * from the last one, or when none is known (a watch that forgot, because nobody listened).
 */
export class AnnouncedList<T> {
  private last: { value: T } | undefined;

  constructor(
    private readonly read: () => T,
    private readonly same: (a: T, b: T) => boolean = Object.is,
  ) {}

  /** True, and remembered, when the list now differs from the last one known (or none is known). */
  changed(): boolean {
    const next = this.read();
    if (this.last !== undefined && this.same(this.last.value, next)) return false;
    this.last = { value: next };
    return true;
  }

  /** Takes the list as it is now as known, announcing nothing (a client that has just listed it). */
  mark(): void {
    this.remember(this.read());
  }

  /** Takes `value` as the list the client knows (one it was just shown). */
  remember(value: T): void {
    this.last = { value };
  }

  /** Takes the list as it is now as known, unless one is known already. */
  know(): void {
    if (this.last === undefined) this.mark();
  }

  /** Forgets the list (nothing is read while nobody listens): the next check announces a change. */
  forget(): void {
    this.last = undefined;
  }
}

/** A tools list as its sources (see handlers/tools entrySource) under a `definitions` setting. */
export interface ListSources {
  definitions: string;
  tools: ToolDefinition[];
}

/** Same listed tools? Same sources under the same `definitions` setting (see sameToolList). */
export function sameSources(a: ListSources, b: ListSources): boolean {
  return a.definitions === b.definitions && sameToolList(a.tools, b.tools);
}

/**
 * Same tools in the same order? Unchanged definitions are the same objects (the catalog keeps
 * them across rebuilds), so this is a pointer walk; only replaced objects are compared by content.
 */
export function sameToolList(a: readonly ToolDefinition[], b: readonly ToolDefinition[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x?.name !== y?.name || JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

/** Where 2026-07-28 list changes go: the HTTP handler's notifier, or a stdio connection's server. */
export interface ListNotifier {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
}

/** The hub as watchListChanges needs it: the lists, and where it announces that one may have changed. */
export interface ListChangeSource extends Pick<CatalogHub, 'config' | 'catalog'>, Pick<RoutingContext, 'prompts' | 'resources'> {
  readonly listChangeListeners: Set<(kind: ListKind) => void>;
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
function toolsFingerprint(hub: ListChangeSource): string {
  const { modes, alwaysVisible, strategy, defaultMode, variants } = hub.config;
  const hash = createHash('sha1').update(JSON.stringify({ modes, alwaysVisible, strategy, defaultMode, variants }));
  for (const tool of hub.catalog.tools) hash.update(`${tool.exposedName}\n${tool.groups.join(',')}\n${tool.readOnly}\n${digestOf(tool.listed)}\n`);
  return hash.digest('base64');
}

function listFingerprint(items: readonly object[]): string {
  const hash = createHash('sha1');
  for (const item of items) hash.update(`${digestOf(item)}\n`);
  return hash.digest('base64');
}

/** A running watchListChanges. */
export interface ListChangeWatch {
  /** Stops watching. */
  stop(): void;
  /** A listen stream opens: lists forgotten while nobody listened are read as they are now, so the next change is compared, not assumed. */
  listenerOpens(): void;
}

/**
 * Tells open subscriptions/listen streams when a list legitimately changed: an rc reload, an
 * upstream's list change, a lazily started upstream whose tools drifted from the lock. Each kind is
 * announced only when its content differs from the last announced one (a rebuild that changed
 * nothing stays silent). With `listening`, nothing is hashed while nobody listens (a 10,000-tool
 * catalog costs a hash pass): the lists are read again when a stream opens (`listenerOpens`); a
 * change before that is announced without comparing.
 */
export function watchListChanges(hub: ListChangeSource, notifier: ListNotifier, listening?: () => boolean): ListChangeWatch {
  const watches = new Map<ListKind, { watch: AnnouncedList<string>; announce: () => void }>([
    ['tools', { watch: new AnnouncedList(() => toolsFingerprint(hub)), announce: () => notifier.toolsChanged() }],
    ['prompts', { watch: new AnnouncedList(() => listFingerprint(hub.prompts().list)), announce: () => notifier.promptsChanged() }],
    ['resources', { watch: new AnnouncedList(() => listFingerprint([...hub.resources().resources, ...hub.resources().templates])), announce: () => notifier.resourcesChanged() }],
  ]);
  if (!listening) for (const { watch } of watches.values()) watch.mark();
  const listener = (kind: ListKind) => {
    if (listening && !listening()) {
      for (const { watch } of watches.values()) watch.forget();
      return;
    }
    const entry = watches.get(kind);
    if (entry?.watch.changed()) entry.announce();
  };
  hub.listChangeListeners.add(listener);
  return {
    stop: () => hub.listChangeListeners.delete(listener),
    listenerOpens: () => {
      for (const { watch } of watches.values()) watch.know();
    },
  };
}
