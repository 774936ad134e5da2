import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { RE2JS } from 're2js';
import type { ToolDefinition } from '../catalog/catalog.js';
import { capText } from '../util/bounds.js';
import { canonicalJson } from '../util/canonical-json.js';
import { linearRegExp } from '../util/linear-regexp.js';
import { countSteps, detailed, OverBudget, step, steppedCopy, withinSteps } from './validate-steps.js';

/** Makes a validator engine; loaded on the first execute_tool: a gateway that never validates never pays for ajv. */
let engine: Promise<() => Ajv> | undefined;
/** The engine compiling now, and how many schemas it compiled (it keeps each one's code). */
let current: { ajv: Ajv; compiled: number } | undefined;
const compiled = new WeakMap<object, ValidateFunction | null>();

/**
 * Schemas one ajv instance compiles before a fresh one takes over. An instance keeps every
 * schema it compiled and its generated code for as long as it lives (removeSchema frees neither),
 * and an upstream's re-list brings new schema objects: 2,000 compiles of a 200-property schema
 * kept 228 MB. A retired instance goes once the validators it made are gone with their tools.
 */
const COMPILES_PER_ENGINE = 256;

/**
 * Most subschemas (JSON objects) a schema ajv compiles may hold; a larger one is left to the
 * upstream, as one ajv cannot compile. Compiling runs in the gateway's one event loop and costs
 * in the subschemas (a 40,000-property schema blocked every client for 7 s); the largest of 5,369
 * real tool schemas in test/fixtures/catalogs holds 627.
 */
export const MAX_VALIDATED_SUBSCHEMAS = 2_000;

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
 * compile, or one of more than MAX_VALIDATED_SUBSCHEMAS subschemas, is not enforced (the upstream
 * still validates).
 */
export async function argumentProblems(tool: ToolDefinition, args: unknown): Promise<string[]> {
  let validate = compiled.get(tool.inputSchema);
  if (validate === undefined) {
    engine ??= Promise.all([import('ajv'), import('re2js')]).then(([loaded, { RE2JS }]) => {
      // Node's loader names ajv's CommonJS export; the CLI bundle hands over module.exports as default.
      const Ajv = (loaded as Partial<typeof loaded>).Ajv ?? (loaded.default as unknown as typeof loaded).Ajv;
      // inlineRefs false: ajv copies a $ref'd schema into every place that refers to it, so a
      // 10 KB schema (200 refs to one 200-property definition) took 6.4 s to compile; compiled
      // once each, compiling costs in the schema's size. logger false: an unknown `format` is
      // left to the upstream without a stderr line per occurrence per compile.
      return () => countSteps(steppedRequired(linearEnum(linearUniqueItems(new Ajv({ allErrors: true, strict: false, validateSchema: false, inlineRefs: false, logger: false, code: { regExp: Object.assign((pattern: string) => patternTest(RE2JS, pattern), { code: 'linearRegExp' }) } })))));
    });
    const make = await engine;
    validate = compiled.get(tool.inputSchema);
    if (validate === undefined) {
      validate = moreSubschemasThan(tool.inputSchema, MAX_VALIDATED_SUBSCHEMAS) ? null : compile(make, tool.inputSchema);
      compiled.set(tool.inputSchema, validate);
    }
  }
  if (!validate || passes(validate, args)) return [];
  const errors = validate.errors ?? [];
  const shown = new Set<string>();
  let read = 0;
  for (; read < errors.length && shown.size < MAX_PROBLEMS; read++) shown.add(capText(describe(errors[read] as ErrorObject), MAX_PROBLEM_CHARS, 'problem'));
  const problems = [...shown].sort();
  const rest = errors.length - read;
  if (rest > 0) problems.push(`… and ${rest} more problems (fix these first; describe_tools gives the schema)`);
  return problems;
}

/**
 * True when the arguments pass, or when checking them ran past the step budget (validate-steps.ts):
 * then the upstream, which validates its own arguments, decides.
 */
function passes(validate: ValidateFunction, args: unknown): boolean {
  try {
    return withinSteps(() => validate(args) === true);
  } catch (error) {
    if (error instanceof OverBudget) return true;
    throw error;
  }
}

/** The schema compiled by the current engine (a fresh one every COMPILES_PER_ENGINE), or null when ajv cannot compile it. */
function compile(make: () => Ajv, schema: object): ValidateFunction | null {
  if (!current || current.compiled >= COMPILES_PER_ENGINE) current = { ajv: make(), compiled: 0 };
  current.compiled++;
  try {
    return current.ajv.compile(steppedCopy(schema));
  } catch {
    return null;
  }
}

/**
 * ajv with `uniqueItems` checked in time linear in the array's size: ajv's own compares every
 * pair of items unless they are typed as scalars, and arguments are the client's, so 20,000
 * objects in an argument whose schema asks unique items took 14 s (a 4 MB body holds 500,000).
 * Items are compared by their JSON with sorted keys, which equals ajv's deep equality on JSON.
 */
function linearUniqueItems(ajv: Ajv): Ajv {
  ajv.removeKeyword('uniqueItems');
  const check: ((schema: boolean, data: unknown[]) => boolean) & { errors?: Array<Partial<ErrorObject>> } = (schema, data) => {
    if (!schema) return true;
    const seen = new Map<string, number>();
    for (let i = 0; i < data.length; i++) {
      const key = canonicalJson(data[i]);
      const j = seen.get(key);
      if (j !== undefined) {
        check.errors = detailed([{ keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, params: { i, j } }]);
        return false;
      }
      seen.set(key, i);
    }
    return true;
  };
  ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate: check });
  return ajv;
}

/**
 * ajv with `enum` checked in time of the value, not of the enum: ajv's own compares the value with
 * every allowed one, so an upstream enum of 40,000 values over an argument of 10,000 items took
 * 4.3 s (the 200,000 items a body holds: about 85 s). A scalar is looked up by its JSON; an object
 * or array is compared (as ajv's deep equality on JSON) with the allowed objects and arrays only,
 * never serialized. Errors read as ajv's.
 */
function linearEnum(ajv: Ajv): Ajv {
  ajv.removeKeyword('enum');
  ajv.addKeyword({
    keyword: 'enum',
    schemaType: 'array',
    errors: true,
    compile: (allowed: unknown[]) => {
      const scalars = new Set<string>();
      const structured: object[] = [];
      for (const value of allowed) if (typeof value === 'object' && value !== null) structured.push(value);
      else scalars.add(JSON.stringify(value) ?? 'null');
      const check: ((data: unknown) => boolean) & { errors?: Array<Partial<ErrorObject>> } = (data) => {
        if (typeof data === 'object' && data !== null ? structured.some((value) => sameJson(value, data)) : scalars.has(JSON.stringify(data) ?? 'null')) return true;
        check.errors = detailed([{ keyword: 'enum', message: 'must be equal to one of the allowed values', params: { allowedValues: allowed } }]);
        return false;
      };
      return check;
    },
  });
  return ajv;
}

/**
 * ajv with `required` checked a step a name (validate-steps.ts): ajv's own checks every name of
 * every object and, with allErrors, keeps an error for each one missing, so 300 empty objects
 * against 40,000 required names (a 900-byte argument) took 17.8 s and 3.4 GB. Errors read as ajv's.
 */
function steppedRequired(ajv: Ajv): Ajv {
  ajv.removeKeyword('required');
  ajv.addKeyword({
    keyword: 'required',
    type: 'object',
    schemaType: 'array',
    errors: true,
    compile: (names: unknown[]) => {
      const wanted = [...new Set(names.filter((name): name is string => typeof name === 'string'))];
      const check: ((data: Record<string, unknown>) => boolean) & { errors?: Array<Partial<ErrorObject>> } = (data) => {
        const errors: Array<Partial<ErrorObject>> = [];
        for (const name of wanted) {
          step();
          if (!Object.prototype.hasOwnProperty.call(data, name)) errors.push({ keyword: 'required', message: `must have required property '${name}'`, params: { missingProperty: name } });
        }
        if (errors.length === 0) return true;
        check.errors = detailed(errors);
        return false;
      };
      return check;
    },
  });
  return ajv;
}

/** Deep equality of two parsed JSON values (object keys in any order), stopping at the first difference. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => sameJson(item, (b as unknown[])[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** True when `schema` holds more than `max` JSON objects (counted iteratively, up to max + 1). */
function moreSubschemasThan(schema: unknown, max: number): boolean {
  const stack: unknown[] = [schema];
  let objects = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node) && ++objects > max) return true;
    for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) stack.push(child);
  }
  return false;
}

/** Patterns longer than this are left to the upstream (compiling one costs in its length). */
const MAX_PATTERN = 1_000;

/**
 * ajv's RegExp engine: the gateway tests upstream patterns against what a client sends, in its one
 * event loop, so each runs in linear time (util/linear-regexp). A pattern that cannot (a
 * backreference, lookaround) or is over MAX_PATTERN makes ajv fail to compile the schema, which
 * is then left to the upstream (as any schema ajv cannot compile).
 */
function patternTest(engine: typeof RE2JS, pattern: string): { test(text: string): boolean; toString(): string } {
  if (pattern.length > MAX_PATTERN) throw new Error(`lazytools does not run patterns over ${MAX_PATTERN} characters`);
  const regExp = linearRegExp(engine, pattern);
  // Each test is a step of the validation's budget (validate-steps.ts): keys times patterns add up.
  return {
    test: (text: string) => {
      step();
      return regExp.test(text);
    },
    // ajv keeps one engine object per pattern by this text.
    toString: () => regExp.toString(),
  };
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
      // Past MAX_DETAILED failing checks ajv's own one-line error stands in (validate-steps.ts).
      if (typeof params.missingProperty !== 'string') return `${base || '(arguments)'}: required properties are missing`;
      return `${join(base, params.missingProperty)}: required property is missing`;
    case 'additionalProperties':
      return `${join(base, String(params.additionalProperty))}: unknown property`;
    case 'enum': {
      const allowed = params.allowedValues;
      if (!Array.isArray(allowed)) return `${base || '(arguments)'}: must be one of the allowed values`;
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
