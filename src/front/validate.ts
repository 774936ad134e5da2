import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { ToolDefinition } from '../catalog/catalog.js';

let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ValidateFunction | null>();

/**
 * Checks tool arguments against the tool's JSON Schema. Returns one line per failing field, sorted
 * (`owner: required property is missing`), or an empty list when they fit. A schema ajv cannot
 * compile is not enforced (the upstream still validates).
 */
export function argumentProblems(tool: ToolDefinition, args: unknown): string[] {
  let validate = compiled.get(tool.inputSchema);
  if (validate === undefined) {
    try {
      ajv ??= new Ajv({ allErrors: true, strict: false, validateSchema: false });
      validate = ajv.compile(tool.inputSchema);
    } catch {
      validate = null;
    }
    compiled.set(tool.inputSchema, validate);
  }
  if (!validate || validate(args)) return [];
  return [...new Set((validate.errors ?? []).map(describe))].sort();
}

function describe(error: ErrorObject): string {
  const base = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')
    .replace(/^\./, '');
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${join(base, String(params.missingProperty))}: required property is missing`;
    case 'additionalProperties':
      return `${join(base, String(params.additionalProperty))}: unknown property`;
    case 'enum':
      return `${base || '(arguments)'}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${base || '(arguments)'}: ${error.message ?? error.keyword}`;
  }
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}
