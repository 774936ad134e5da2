import type { RE2JS } from 're2js';

/**
 * ECMAScript patterns (a JSON Schema `pattern`) run in linear time, on RE2 (the re2js port): no
 * input and no pattern can make a test backtrack. A backtracking engine cannot be bounded by
 * looking at the pattern: nested and exact-count repeats (`^(?:\w+){8}$` held V8 9.8 s on 47
 * characters), adjacent quantifiers, and even `\d+\.\d+` unanchored (1 s on 20,000 digits,
 * quadratic) all slip past any rule that still lets ordinary patterns run. RE2 runs each in
 * time linear in the input (milliseconds at 100,000 characters), for ~7 us a test at the sizes
 * of ordinary arguments (V8: under 1 us).
 *
 * What ECMAScript means and RE2 does not is written out first: `\s` is Unicode white space and
 * `.` excludes every line terminator. RE2 refuses what it cannot run in linear time
 * (backreferences, lookaround): `linearRegExp` then throws, and the caller leaves the pattern to
 * whoever else checks it.
 */

/** ECMAScript's white space and line terminators (what `\s` matches), as class contents. */
const SPACE = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
/** What `.` matches without the `s` flag. */
const ANY = '[^\\n\\r\\u2028\\u2029]';

/** The pattern with `\s`, `\S` and `.` written as the classes ECMAScript means by them. */
export function ecmaClasses(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      i++;
      if (next === 's') out += inClass ? SPACE : `[${SPACE}]`;
      else if (next === 'S') {
        if (inClass) throw new Error('\\S inside a character class has no RE2 equivalent with ECMAScript meaning');
        out += `[^${SPACE}]`;
      } else out += `\\${next}`;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      // A `]` right after `[` or `[^` is a literal in RE2 but ends an empty class in ECMAScript.
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') throw new Error('an empty character class has no RE2 equivalent');
    } else out += c === '.' ? ANY : c;
  }
  return out;
}

/**
 * A RegExp-like `test` for `pattern` that runs in linear time; throws when RE2 cannot run it. Its
 * `toString` names the pattern, as a RegExp's does (ajv shares compiled patterns by it).
 */
export function linearRegExp(engine: typeof RE2JS, pattern: string): { test(text: string): boolean; toString(): string } {
  const compiled = engine.compile(engine.translateRegExp(ecmaClasses(pattern)));
  return { test: (text) => compiled.test(text), toString: () => `/${pattern}/u` };
}
