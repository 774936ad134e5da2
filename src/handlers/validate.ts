import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { RE2JS } from 're2js';
import type { ToolDefinition } from '../catalog/catalog.js';
import { capText } from '../util/bounds.js';
import { linearRegExp } from '../util/linear-regexp.js';

/** Loaded on the first execute_tool: a gateway that never validates never pays for ajv. */
let ajv: Promise<Ajv> | undefined;
const compiled = new WeakMap<object, ValidateFunction | null>();

/**
 * Problems an answer names at most, the rest counted: the model reads them, and one argument of a
 * million wrong items (or an upstream enum of 40,000 values, or 40,000 required properties) made
 * an answer of tens of MB.
 */
export const MAX_PROBLEMS = 20;
/** Characters of one problem at most (its path holds the model's keys, its values the upstream's). */
export const MAX_PROBLEM_CHARS = 300;
/** Allowed values an enum problem names at most, in about this many characters (describe_tools gives the schema). */
const ENUM_VALUES_SHOWN = 10;
const ENUM_TEXT_CHARS = 160;

/**
 * Checks tool arguments against the tool's JSON Schema. Returns one line per failing field, sorted
 * (`owner: required property is missing`), at most MAX_PROBLEMS of them and a last line counting
 * the rest, each at most MAX_PROBLEM_CHARS; or an empty list when they fit. A schema ajv cannot
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
  const errors = validate.errors ?? [];
  const shown = new Set<string>();
  let read = 0;
  for (; read < errors.length && shown.size < MAX_PROBLEMS; read++) shown.add(capText(describe(errors[read] as ErrorObject), MAX_PROBLEM_CHARS, 'problem'));
  const problems = [...shown].sort();
  const rest = errors.length - read;
  if (rest > 0) problems.push(`… and ${rest} more problems (fix these first; describe_tools gives the schema)`);
  return problems;
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
    case 'enum': {
      const allowed = params.allowedValues as unknown[];
      const shown: string[] = [];
      let length = 0;
      for (const value of allowed.slice(0, ENUM_VALUES_SHOWN)) {
        const text = capText(JSON.stringify(value) ?? String(value), 60, 'value');
        if (shown.length > 0 && length + text.length > ENUM_TEXT_CHARS) break;
        shown.push(text);
        length += text.length + 2;
      }
      const more = shown.length < allowed.length ? `, … (${allowed.length} values)` : '';
      return `${base || '(arguments)'}: must be one of ${shown.join(', ')}${more}`;
    }
    default:
      return `${base || '(arguments)'}: ${error.message ?? error.keyword}`;
  }
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}
