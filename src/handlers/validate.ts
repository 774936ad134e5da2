import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { ToolDefinition } from '../catalog/catalog.js';

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
    ajv ??= import('ajv').then((loaded) => {
      // Node's loader names ajv's CommonJS export; the CLI bundle hands over module.exports as default.
      const Ajv = (loaded as Partial<typeof loaded>).Ajv ?? (loaded.default as unknown as typeof loaded).Ajv;
      return new Ajv({ allErrors: true, strict: false, validateSchema: false, code: { regExp: guardedRegExp } });
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

/**
 * ajv's RegExp engine, refusing upstream patterns that can backtrack for ever: ajv then cannot
 * compile the schema, which is left to the upstream (as any schema ajv cannot compile). The
 * gateway tests patterns against what the client sends, in its one event loop: `^(a+)+$` held
 * it 11 s on 27 characters through execute_tool, doubling with each more.
 */
const guardedRegExp = Object.assign(
  (pattern: string, flags: string) => {
    if (riskyPattern(pattern)) throw new Error(`lazytools does not run the pattern ${JSON.stringify(pattern.slice(0, 80))}: it may backtrack without bound`);
    return new RegExp(pattern, flags);
  },
  { code: 'new RegExp' },
);

/**
 * True for a pattern a backtracking engine may take exponential time on: a repeated group whose
 * body repeats or alternates (`(a+)+`, `(a|ab)*`, `(\w+\.)+`), a backreference, or a pattern
 * over 1,000 characters. Conservative: a safe pattern may be refused (then not enforced here).
 */
export function riskyPattern(pattern: string): boolean {
  if (pattern.length > 1_000 || /\\[1-9]|\\k</.test(pattern)) return true;
  // Per open group: does its body hold a quantifier or an alternation?
  const open: boolean[] = [];
  const mark = () => {
    if (open.length > 0) open[open.length - 1] = true;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') {
      // A class is one atom: skip to its closing bracket.
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
    } else if (c === '(') {
      open.push(false);
      // Group syntax, not quantifiers: (?: (?= (?! (?<= (?<! (?<name>
      if (pattern[i + 1] === '?') i += pattern[i + 2] === '<' && pattern[i + 3] !== '=' && pattern[i + 3] !== '!' ? pattern.indexOf('>', i) - i : 2;
    } else if (c === ')') {
      const inner = open.pop() ?? false;
      const next = pattern[i + 1];
      const repeated = next === '*' || next === '+' || (next === '{' && !/^\{\d+\}/.test(pattern.slice(i + 1)));
      if (inner && repeated) return true;
      if (inner || repeated) mark();
    } else if (c === '*' || c === '+' || c === '?' || c === '{' || c === '|') mark();
  }
  return false;
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
