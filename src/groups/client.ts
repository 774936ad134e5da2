import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { GROUPS_EXTENSION, type Group } from './wire.js';

/**
 * The host side of the draft extension `io.modelcontextprotocol/groups`, for clients built on the
 * v2 SDK `Client` (declare the extension when you create it: `new Client(info, { capabilities:
 * { extensions: { 'io.modelcontextprotocol/groups': {} } } })`). Small on purpose: list every
 * group, fetch one, and register the tools of fetched groups once. What to show the model, and
 * when, stays the host's choice (the draft leaves activation to the client).
 */

/** The part of a v2 `Client` these helpers use. */
export type GroupsClient = Pick<Client, 'request' | 'getServerCapabilities'>;

/** A tool definition as `groups/get` returns it (complete: `inputSchema` included). */
export type GroupTool = { name: string; inputSchema: Record<string, unknown> } & Record<string, unknown>;

/** What `groups/get` answers. */
export interface FetchedGroup {
  instructions?: string | undefined;
  tools: GroupTool[];
  /** Child groups (navigation only: fetch each with its own `groups/get`). */
  groups: Group[];
}

const GroupShape = z.looseObject({ name: z.string(), title: z.string().optional(), description: z.string() });
const ListShape = z.looseObject({ groups: z.array(GroupShape), nextCursor: z.string().optional() });
const GetShape = z.looseObject({
  instructions: z.string().optional(),
  contents: z.looseObject({ tools: z.array(z.looseObject({ name: z.string(), inputSchema: z.looseObject({}) })).optional(), groups: z.array(GroupShape).optional() }).optional(),
});

/** Pages followed at most: a server that keeps handing out cursors cannot keep the host looping. */
const MAX_PAGES = 1_000;

/**
 * Groups one nested load fetches at most (the one asked for included), as MAX_PAGES bounds a
 * list: a server whose every group names a new child (`g1` names `g2`, ...) kept the walk, and
 * the host, going for as long as it answered.
 */
export const MAX_NESTED_GROUPS = 10_000;

/** True when the connected server advertised the extension (the draft: never ask one that did not). */
export function offersGroups(client: GroupsClient): boolean {
  const extensions = client.getServerCapabilities()?.extensions;
  return extensions !== undefined && Object.prototype.hasOwnProperty.call(extensions, GROUPS_EXTENSION);
}

/** Every top-level group, over all pages of `groups/list` (stops on a repeated cursor). */
export async function listGroups(client: GroupsClient): Promise<Group[]> {
  const groups: Group[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request({ method: 'groups/list', params: cursor === undefined ? {} : { cursor } } as never, ListShape);
    // One by one: spreading a page of a few hundred thousand groups overflows the stack.
    for (const group of result.groups as Group[]) groups.push(group);
    cursor = result.nextCursor;
    if (cursor === undefined || cursors.has(cursor)) break;
    cursors.add(cursor);
  }
  return groups;
}

/** One group's instructions, tools and child groups (`groups/get`; an unknown name rejects with -32002). */
export async function getGroup(client: GroupsClient, name: string): Promise<FetchedGroup> {
  const result = await client.request({ method: 'groups/get', params: { name } } as never, GetShape);
  return { instructions: result.instructions, tools: (result.contents?.tools ?? []) as GroupTool[], groups: (result.contents?.groups ?? []) as Group[] };
}

/**
 * The tools of the groups a host fetched, each registered once however many groups carry it (the
 * draft: a server and a tool name are one identity).
 *
 * @example
 * const registry = new GroupToolRegistry(client);
 * const { tools } = await registry.load('issues'); // new tools to offer the model; call them with client.callTool
 */
export class GroupToolRegistry {
  private readonly registered = new Map<string, GroupTool>();
  private readonly fetched = new Set<string>();

  constructor(private readonly client: GroupsClient) {}

  /**
   * Fetches a group (and, with `nested`, its child groups, breadth first, each once: a cycle from an
   * untrusted server ends the walk, and it stops at MAX_NESTED_GROUPS) and registers the tools not registered yet. Resolves with
   * those new tools, the instructions met and the child groups.
   */
  async load(name: string, options: { nested?: boolean } = {}): Promise<{ tools: GroupTool[]; instructions: string[]; groups: Group[] }> {
    const out = { tools: [] as GroupTool[], instructions: [] as string[], groups: [] as Group[] };
    const queue = [name];
    // Each child is queued once, however many groups name it (an untrusted server may name the
    // same thousands in every group).
    const queued = new Set(queue);
    for (let at = 0; at < queue.length; at++) {
      const next = queue[at] as string;
      if (this.fetched.has(next) && next !== name) continue;
      this.fetched.add(next);
      const group = await getGroup(this.client, next);
      if (group.instructions) out.instructions.push(group.instructions);
      for (const tool of group.tools) {
        if (this.registered.has(tool.name)) continue;
        this.registered.set(tool.name, tool);
        out.tools.push(tool);
      }
      for (const child of group.groups) {
        if (next === name) out.groups.push(child);
        if (!options.nested || queue.length >= MAX_NESTED_GROUPS || this.fetched.has(child.name) || queued.has(child.name)) continue;
        queued.add(child.name);
        queue.push(child.name);
      }
    }
    return out;
  }

  /** Every tool registered so far, in the order first seen. */
  tools(): GroupTool[] {
    return [...this.registered.values()];
  }
}
