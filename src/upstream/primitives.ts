import type { RequestId } from '../protocol/jsonrpc.js';

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

/** What an upstream offers before its first listing: one shared value, never mutated (a re-list replaces the lists whole). */
export const NO_PRIMITIVES: UpstreamPrimitives = { prompts: [], resources: [], templates: [] };

/**
 * Who caused a request to an upstream: the front session (opaque here) and its request id. An
 * upstream's own requests (sampling, elicitation, roots) and notifications are routed back by it.
 */
export interface CallOrigin {
  readonly session: object;
  readonly requestId: RequestId | undefined;
}
