import type { ServerCapabilities } from '@modelcontextprotocol/server';
import type { Era } from '../protocol/era.js';
import type { Upstream } from '../upstream/upstream.js';
import { capText } from '../util/bounds.js';
import { groupsExtensions } from './groups.js';

/** Longest instructions text taken from one upstream (they go into every initialize and discover answer). */
export const MAX_UPSTREAM_INSTRUCTIONS = 4 * 1024;

/** What the upstreams offer beyond tools: the primitives a lazytools server advertises. */
export interface Offered {
  prompts: boolean;
  completions: boolean;
  logging: boolean;
}

/**
 * The capabilities at least one upstream offers. An upstream not started yet (lazy, from the
 * lock) may offer any, so while one is unknown, prompts, completions and logging are offered.
 */
export function offeredCapabilities(upstreams: Iterable<Upstream>): Offered {
  const offered = { prompts: false, completions: false, logging: false };
  for (const upstream of upstreams) {
    const caps = upstream.capabilities;
    if (!caps) return { prompts: true, completions: true, logging: true };
    offered.prompts ||= caps.prompts !== undefined;
    offered.completions ||= caps.completions !== undefined;
    offered.logging ||= caps.logging !== undefined;
  }
  return offered;
}

/**
 * A lazytools server's capabilities in either era: tools and resources always, prompts and
 * completions when an upstream offers them, the groups extension, and `extensions` (server
 * variants). Only a 2025 session offers resource subscriptions and logging (2026-07-28 moved
 * subscriptions to subscriptions/listen and deprecates logging).
 */
export function serverCapabilities(era: Era, offered: Offered, extensions: Record<string, object> = {}): ServerCapabilities {
  return {
    tools: { listChanged: true },
    resources: era === 'legacy' ? { subscribe: true, listChanged: true } : { listChanged: true },
    ...(offered.prompts ? { prompts: { listChanged: true } } : {}),
    ...(offered.completions ? { completions: {} } : {}),
    ...(era === 'legacy' && offered.logging ? { logging: {} } : {}),
    extensions: { ...groupsExtensions(), ...extensions } as never,
  };
}

/** What a caller is told at the start (initialize, server/discover), and what the server then answers. */
export interface Advertised {
  offered: Offered;
  capabilities: ServerCapabilities;
  instructions: string;
}

/**
 * The capabilities and instructions a caller is told of, in either era, from the upstreams it
 * reaches: all of them for the shared token, those of its modes' servers for a bearer token
 * (callers/routing.ts scopedRouting). A token's session is not offered prompts, completions or
 * logging that only servers outside its modes have: it could list nothing with them (their
 * prompts are not in its reach), a client would ask anyway, and the offer would tell the token
 * what those servers provide, as their instructions would (which it is not given either). Tools
 * and resources are lazytools' own and always offered.
 */
export function advertised(era: Era, reached: ReadonlyMap<string, Upstream>): Advertised {
  const offered = offeredCapabilities(reached.values());
  return { offered, capabilities: serverCapabilities(era, offered), instructions: serverInstructions(era, reached.values()) };
}

const INSTRUCTIONS: Record<Era, string> = {
  legacy:
    'lazytools curates the tools of several MCP servers. The list shows the tools of the current focus mode. ' +
    'To work on something else, call focus_mode (e.g. {"intent": "security review"}); to reach a tool that is not listed, ' +
    'call search_tools, then call it (or use execute_tool when it is not added to the list).',
  modern:
    'lazytools curates the tools of several MCP servers into focus modes. The list shows the tools of one mode; it does not change with your calls. ' +
    'To reach a tool that is not listed, call search_tools, then execute_tool. To work in another mode, ask focus_mode (e.g. {"intent": "security review"}): it says how to reach it.',
};

/**
 * lazytools' instructions for the era, then the upstreams' own (those the caller reaches), each
 * under its server's name and cut at MAX_UPSTREAM_INSTRUCTIONS characters.
 */
export function serverInstructions(era: Era, upstreams: Iterable<Upstream>): string {
  const parts = [INSTRUCTIONS[era]];
  for (const upstream of upstreams) {
    const text = (upstream.servedInstructions ? upstream.servedInstructions() : upstream.instructions)?.trim();
    if (text) parts.push(`## ${upstream.name}\n${capText(text, MAX_UPSTREAM_INSTRUCTIONS, 'instructions')}`);
  }
  return parts.join('\n\n');
}
