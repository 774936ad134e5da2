import type { Ajv } from 'ajv';

/**
 * A step budget for one validation. ajv's work is not bounded by the schema's size: a schema whose
 * `anyOf` branches each recurse (`$ref`) into the next level costs branches^depth checks of an
 * argument (allErrors goes on past a failed `required`), and diamonds of `$ref`s multiply alike,
 * so a 200-byte argument held the gateway's one event loop 18.7 s at 14 levels, hours at 20. The
 * compiled copy of a schema carries STEP in every subschema; each check of one takes a step, as
 * each pattern test does, and past MAX_STEPS the validation stops (OverBudget) and the arguments go
 * to the upstream.
 */

/** The keyword counted: in every subschema of the compiled copy, never in the tool's own schema. */
const STEP = 'x-lazytools-step';

/**
 * Subschema checks one validation may make: above the 200,000 JSON values an HTTP body may hold,
 * so checks that cost one step a value always finish; about 0.25 s of the event loop at most.
 */
export const MAX_STEPS = 250_000;

/** Thrown out of ajv's code when a validation ran out of steps. */
export class OverBudget extends Error {}

let left = MAX_STEPS;

/** Adds the counted keyword to an ajv instance. */
export function countSteps(ajv: Ajv): Ajv {
  ajv.addKeyword({
    keyword: STEP,
    schemaType: 'boolean',
    errors: false,
    validate: () => {
      step();
      return true;
    },
  });
  return ajv;
}

/**
 * Takes one step of the running validation: a subschema checked, or a `pattern` tested (one
 * per string value, and one per key and pattern of `patternProperties`: 1,000 patterns over an
 * argument of 50,000 keys took 15 s). OverBudget past MAX_STEPS.
 */
export function step(): void {
  if (--left < 0) throw new OverBudget('validation step budget spent');
}

/**
 * Failing checks of lazytools' own keywords (enum, required, uniqueItems) one validation gives
 * their errors for: ajv appends a keyword's errors by copying every error so far
 * (`vErrors.concat`), so 5,000 failing objects took 8.8 s, 20,000 over 50 s. Past it a failing
 * check gives ajv none and ajv adds its own one-line error (no copy).
 */
export const MAX_DETAILED = 100;

let detailedLeft = MAX_DETAILED;

/** The errors a failing check of an own keyword gives ajv: `errors` while MAX_DETAILED lasts, then none. */
export function detailed<T>(errors: T[]): T[] | undefined {
  if (detailedLeft <= 0) return undefined;
  detailedLeft--;
  return errors;
}

/** Runs one validation with a fresh budget; OverBudget when it ran out. */
export function withinSteps<T>(run: () => T): T {
  left = MAX_STEPS;
  detailedLeft = MAX_DETAILED;
  return run();
}

/** Keywords whose values are data, never subschemas. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'example', 'required', 'type']);
/** Keywords whose values map names to subschemas. */
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

/**
 * A copy of `schema` with STEP in every subschema: the root, each object under a keyword that is
 * not data (`enum`, `const`, ...), each value of a name map (`properties`, `$defs`, ...), each
 * object of an array (`anyOf`, `items`, ...). An object under an unknown keyword counts too, so a
 * `$ref` into any part of the schema meets the keyword. The tool's own schema is never changed.
 */
export function steppedCopy(schema: object): object {
  const copy = structuredClone(schema) as Record<string, unknown>;
  const stack: unknown[] = [copy];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (DATA.has(key) || typeof value !== 'object' || value === null) continue;
      if (Array.isArray(value)) stack.push(...value);
      else if (MAPS.has(key)) stack.push(...Object.values(value));
      else stack.push(value);
    }
    record[STEP] = true;
  }
  return copy;
}
