import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { RE2JS } from 're2js';
import type { ToolDefinition } from '../catalog/catalog.js';
import { linearRegExp } from '../util/linear-regexp.js';

/** Loaded on the first execute_tool: a gateway that never validates never pays for ajv. */
let ajv: Promise<Ajv> | undefined;
const compiled = new WeakMap<object, ValidateFunction | null>();

/**
 * Checks tool arguments against the tool's JSON Schema. Returns one line per failing field, sorted
 * (`owner: required property is missing`), or an empty list when they fit. A schema ajv cannot
 * compile is not enforced (the upstream still validates).
 */
export async function argumentProblems(tool: ToolDefinition, args: unknown): Promise<string[]> {
  let validate = compiled.get(tool.inputSchema);
  if (validate === undefined) {
    ajv ??= Promise.all([import('ajv'), import('re2js')]).then(([loaded, { RE2JS }]) => {
      // Node's loader names ajv's CommonJS export; the CLI bundle hands over module.exports as default.
      const Ajv = (loaded as Partial<typeof loaded>).Ajv ?? (loaded.default as unknown as typeof loaded).Ajv;
      return new Ajv({ allErrors: true, strict: false, validateSchema: false, code: { regExp: Object.assign((pattern: string) => patternTest(RE2JS, pattern), { code: 'linearRegExp' }) } });
    });
    const compiler = await ajv;
    try {
      validate = compiler.compile(tool.inputSchema);
    } catch {
      validate = null;
    }
    compiled.set(tool.inputSchema, validate);
  }
  if (!validate || validate(args)) return [];
  return [...new Set((validate.errors ?? []).map(describe))].sort();
}

/** Patterns longer than this are left to the upstream (compiling one costs in its length). */
const MAX_PATTERN = 1_000;

/**
 * ajv's RegExp engine: the gateway tests upstream patterns against what a client sends, in its one
 * event loop, so each runs in linear time (util/linear-regexp). A pattern that cannot (a
 * backreference, lookaround) or is over MAX_PATTERN makes ajv fail to compile the schema, which
 * is then left to the upstream (as any schema ajv cannot compile).
 */
function patternTest(engine: typeof RE2JS, pattern: string): { test(text: string): boolean } {
  if (pattern.length > MAX_PATTERN) throw new Error(`lazytools does not run patterns over ${MAX_PATTERN} characters`);
  return linearRegExp(engine, pattern);
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
