import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import type { RequestId } from '../util/jsonrpc.js';
import { valueTooBig } from '../util/bounds.js';

/** An upstream's prompt, resource or template definition, verbatim (only the key fields checked). */
export type PromptDefinition = Record<string, unknown> & { name: string };
export type ResourceDefinition = Record<string, unknown> & { uri: string };
export type TemplateDefinition = Record<string, unknown> & { uriTemplate: string };

/** What an upstream offers besides tools, as listed at start and re-listed on its list_changed. */
export interface UpstreamPrimitives {
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
  templates: TemplateDefinition[];
}

export const NO_PRIMITIVES: UpstreamPrimitives = { prompts: [], resources: [], templates: [] };

/**
 * Who caused a request to an upstream: the front session (opaque here) and its request id. An
 * upstream's own requests (sampling, elicitation, roots) and notifications are routed back by it.
 */
export interface CallOrigin {
  readonly session: object;
  readonly requestId: RequestId | undefined;
}

const looseResult = z.looseObject({});
const MAX_PAGES = 1_000;

/** Every page of a list method, keeping the entries whose `key` is a string. */
export async function listPages<T extends Record<string, unknown>>(client: Client, method: string, field: string, key: string, timeout: number): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = (await client.request({ method, params: cursor ? { cursor } : {} } as never, looseResult, { timeout })) as Record<string, unknown>;
    const list = result[field];
    // A definition too deep or too large to serialize again is left out (see valueTooBig).
    if (Array.isArray(list)) for (const item of list as T[]) if (item && typeof item[key] === 'string' && valueTooBig(item) === undefined) items.push(item);
    cursor = typeof result.nextCursor === 'string' && result.nextCursor.length > 0 ? result.nextCursor : undefined;
    if (!cursor) break;
  }
  return items;
}

/** Lists what the server's capabilities say it offers; a failing list counts as empty. */
export async function listPrimitives(client: Client, timeout: number, onError: (what: string, error: Error) => void): Promise<UpstreamPrimitives> {
  const capabilities = client.getServerCapabilities() ?? {};
  const safe = async <T>(what: string, run: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await run();
    } catch (error) {
      onError(what, error as Error);
      return [];
    }
  };
  const [prompts, resources, templates] = await Promise.all([
    capabilities.prompts ? safe('prompts', () => listPages<PromptDefinition>(client, 'prompts/list', 'prompts', 'name', timeout)) : [],
    capabilities.resources ? safe('resources', () => listPages<ResourceDefinition>(client, 'resources/list', 'resources', 'uri', timeout)) : [],
    capabilities.resources ? safe('resource templates', () => listPages<TemplateDefinition>(client, 'resources/templates/list', 'resourceTemplates', 'uriTemplate', timeout)) : [],
  ]);
  return { prompts, resources, templates };
}
