import type { CallToolResult } from '@modelcontextprotocol/server';
import { redact } from '../util/redact.js';

/** A text result with optional structured content. */
export function textResult(raw: string, structuredContent?: Record<string, unknown>): CallToolResult {
  const text = redact(raw);
  return structuredContent ? { content: [{ type: 'text', text }], structuredContent } : { content: [{ type: 'text', text }] };
}

/** Compact JSON for results the model reads (no indentation: tokens cost). */
export function jsonResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}
