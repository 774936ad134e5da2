/**
 * The wire shapes of the draft MCP extension `io.modelcontextprotocol/groups` ("Progressive
 * Disclosure via Groups", 2026-09-28), shared by lazytools' server side (focus/group-view.ts,
 * handlers/groups.ts) and the host helper (client.ts). No lazytools imports: hosts load only this.
 */

/** The extension's identifier, in capabilities and in `_meta` client capabilities. */
export const GROUPS_EXTENSION = 'io.modelcontextprotocol/groups';

/** A group as `groups/list` and `contents.groups` carry it. */
export interface Group {
  name: string;
  title?: string;
  description: string;
}

/** What `groups/get` answers: at least one of `instructions` and `contents`. */
export interface GetGroupResult {
  instructions?: string;
  contents: { tools?: Array<Record<string, unknown>>; groups?: Group[] };
}
