import { AsyncLocalStorage } from 'node:async_hooks';
import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
import type { Hub } from '../callers/hub.js';
import { requestCaller } from '../callers/request.js';
import type { Route } from '../focus/scope.js';
import { AnnouncedList, sameSources, type ListSources } from '../handlers/list-changes.js';

/**
 * The event bus of the 2026-07-28 `subscriptions/listen` streams, each stream told of a tools
 * list change only when its own list changed: what tools/list returns for its route (endpoint,
 * bearer token, mode). watchListChanges decides for the gateway as a whole (one fingerprint of
 * every mode's list), so without this a token that reaches only one team's servers heard
 * list_changed whenever another team's server changed its tools: a leak of what it cannot see.
 * The SDK's listen router subscribes while the listen request is handled; `opening` runs that
 * handling, so the stream's route is known when it subscribes.
 */
export class ScopedListenBus implements ServerEventBus {
  private readonly inner = new InMemoryServerEventBus();
  private readonly route = new AsyncLocalStorage<Route>();

  constructor(private readonly hub: Hub) {}

  /** Open listen streams (the gateway reads no list while there are none). */
  get listenerCount(): number {
    return this.inner.listenerCount;
  }

  /** Handles a listen request for `route`: the stream it opens is scoped to that route's list. */
  opening<T>(route: Route, handle: () => T): T {
    return this.route.run(route, handle);
  }

  publish(event: ServerEvent): void {
    this.inner.publish(event);
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    const route = this.route.getStore();
    if (route === undefined) return this.inner.subscribe(listener);
    // The list the stream's client knows: the one as the stream opens (it lists as it listens).
    const tools = new AnnouncedList(() => listOf(this.hub, route), (a, b) => a !== undefined && b !== undefined && sameSources(a, b));
    tools.mark();
    return this.inner.subscribe((event) => {
      if (event.kind === 'tools_list_changed' && !tools.changed()) return;
      listener(event);
    });
  }
}

/** What tools/list returns for `route` (its sources); undefined when its mode is refused now (a change, announced). */
function listOf(hub: Hub, route: Route): ListSources | undefined {
  try {
    return requestCaller(hub, route).listSources();
  } catch {
    return undefined;
  }
}
