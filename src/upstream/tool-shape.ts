import type { ToolDefinition } from '../catalog/catalog.js';

/**
 * The tools of an upstream's `tools/list` page that lazytools can list again. An upstream is
 * not trusted to send valid definitions, and one bad tool must cost only itself: a client's SDK
 * validates the whole `tools/list` answer, so one `inputSchema` that is not an object schema
 * (null, an array, `{"type": "string"}`) would make it drop every tool of every server, and a
 * `description` or `title` that is not a string broke the catalog's summary and so the whole
 * upstream's start. Such tools are skipped (`skip` is told why); a non-string `description` or
 * `title` is dropped from an otherwise good tool.
 */
export function usableTools(tools: unknown, skip: (name: string, reason: string) => void): ToolDefinition[] {
  if (!Array.isArray(tools)) return [];
  const out: ToolDefinition[] = [];
  for (const tool of tools as unknown[]) {
    if (!isObject(tool) || typeof tool.name !== 'string') continue;
    const schema = tool.inputSchema;
    if (!isObject(schema) || schema.type !== 'object') {
      skip(tool.name, 'its inputSchema is not a JSON Schema object with "type": "object"');
      continue;
    }
    let usable = tool;
    for (const key of ['description', 'title'] as const) {
      if (usable[key] === undefined || typeof usable[key] === 'string') continue;
      const { [key]: _dropped, ...rest } = usable;
      usable = rest;
    }
    out.push(usable as unknown as ToolDefinition);
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
