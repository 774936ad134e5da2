import path from 'node:path';
import { z } from 'zod';
import { didYouMean } from '../util/closest.js';
import { ConfigError } from '../util/errors.js';
import { configSchema, type RcConfig } from './schema.js';
import { keysAt } from './schema-keys.js';
import { pathKey, secretName, shownName } from './secrets.js';
import { asConfigError, findConfig, MAX_RC_BYTES, type LoadConfigOptions } from './find.js';
import { writtenOutSize } from '../util/plain-json.js';

export { MAX_RC_BYTES, MAX_RC_LOAD_MS, type LoadConfigOptions } from './find.js';

/** A validated rc file and where it came from (`file` is undefined when none was found). */
export interface LoadedConfig {
  config: RcConfig;
  file: string | undefined;
}

/**
 * Finds and validates the project's rc file.
 *
 * @example
 * const { config, file } = await loadConfig({ cwd: process.cwd() });
 *
 * @throws ConfigError naming the file, the key path and what was expected.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const { value, file } = await findConfig(options);
  return { config: validated(value, file), file };
}

/** `value` as the rc schema reads it (`parseConfig`; none or an empty file: `{}`), a JS or TS rc's throwing getter or proxy a ConfigError naming `file`. */
export function validated(value: unknown, file: string | undefined): RcConfig {
  if (file === undefined || value === undefined) return {};
  try {
    return parseConfig(value, file);
  } catch (error) {
    // A JS or TS rc's value is code: a getter or proxy that throws while it is read.
    throw asConfigError(error, file);
  }
}

/**
 * The key path of the first own "__proto__" key in `value` (objects and arrays, 32 levels deep),
 * else undefined. Each object is looked at once: YAML aliases share one object, and an anchor
 * bomb (nine aliases of nine aliases ...) stays as cheap as the document it was written in.
 */
function protoKeyPath(value: unknown, at: readonly string[], seen = new WeakSet<object>()): string | undefined {
  if (typeof value !== 'object' || value === null || at.length > 32 || seen.has(value)) return undefined;
  seen.add(value);
  if (Object.hasOwn(value, '__proto__')) return [...at, '__proto__'].join('.').replace(/\.\[/g, '[');
  for (const [key, inner] of Object.entries(value)) {
    const found = protoKeyPath(inner, [...at, Array.isArray(value) ? `[${key}]` : key], seen);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Validates a config object against the rc schema.
 *
 * @throws ConfigError whose message lists each problem with its key path (the first MAX_CONFIG_ISSUES, then how many more).
 */
export function parseConfig(value: unknown, file?: string): RcConfig {
  // jitless: one small document per process; compiling zod's fast path would cost more than it saves.
  // zod leaves a "__proto__" key out of what it returns without a word: the entry would vanish.
  const reserved = protoKeyPath(value, []);
  if (reserved !== undefined) throw new ConfigError(`${reserved}: "__proto__" is not a name lazytools can keep (it is JavaScript's prototype key): rename it`, file);
  const parsed = configSchema.safeParse(value, { jitless: true });
  if (parsed.success) {
    // The schema reads each alias once per use as cheaply as the text it was written in; what reads the config after it does not.
    refuseWrittenOut(parsed.data, file);
    return parsed.data;
  }
  const issues = parsed.error.issues.slice(0, MAX_CONFIG_ISSUES);
  const more = parsed.error.issues.length - issues.length;
  // Issues are plain objects: the unknown-key ones get a message naming the closest known keys.
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') (issue as { message: string }).message = unknownKeysMessage(issue.keys, issue.path, file);
    // A bad name (a record's key) says what a name must be, not zod's "Invalid key in record".
    if (issue.code === 'invalid_key') (issue as { message: string }).message = `invalid name: ${issue.issues.map((inner) => inner.message).join('; ')}`;
    // A key path names each key whole (an rc key of a megabyte would make the error as long), and may hold a pasted secret.
    (issue as { path: PropertyKey[] }).path = issue.path.map((key) => (typeof key === 'string' ? pathKey(key) : key));
  }
  const rest = more > 0 ? `\n✖ and ${more} more problem(s): fix these and run again` : '';
  throw new ConfigError(`invalid config\n${z.prettifyError(new z.ZodError(issues))}${rest}`, file);
}

/**
 * Most an rc's value may come to written out (about, in characters): four times the largest rc
 * file. Past it is YAML aliases of aliases or of long text: 20,000 aliases of a 100 KB glob in
 * `alwaysVisible` (240 KB of YAML, 2 GB of globs) held `check` 20 s, a 4 MiB file for hours.
 */
export const MAX_RC_WRITTEN_OUT = 4 * MAX_RC_BYTES;

/** A ConfigError naming the first top-level key whose value takes the rc past MAX_RC_WRITTEN_OUT written out. */
function refuseWrittenOut(value: unknown, file: string | undefined): void {
  if (typeof value !== 'object' || value === null) return;
  let left = MAX_RC_WRITTEN_OUT;
  for (const [key, child] of Object.entries(value)) {
    const size = writtenOutSize(child, left);
    if (size === undefined)
      throw new ConfigError(`${pathKey(key)}: expected at most ${MAX_RC_WRITTEN_OUT / 1024 / 1024} MiB in all, written out (YAML anchors and aliases count each time they are used; a hand-written rc is a few KiB)`, file);
    left -= size;
  }
}

/**
 * The problems a config error lists, and the unknown keys one problem names: a generated rc with
 * 20,000 bad servers printed about a megabyte of them; the first ones say what to fix.
 */
export const MAX_CONFIG_ISSUES = 20;

/**
 * An unknown key, with the closest keys the schema accepts at that path (`"sevrers"` -> did you
 * mean "servers"?). A client's MCP config (`mcpServers` at the top level) is pointed at `init`.
 */
function unknownKeysMessage(keys: readonly string[], at: ReadonlyArray<PropertyKey>, file: string | undefined): string {
  const known = keysAt(configSchema, at);
  const more = keys.length > MAX_CONFIG_ISSUES ? `; and ${keys.length - MAX_CONFIG_ISSUES} more unrecognized key(s)` : '';
  return keys
    .slice(0, MAX_CONFIG_ISSUES)
    .map((key) => {
      if (at.length === 0 && key === 'mcpServers') return `Unrecognized key: "mcpServers": this is a client's MCP config, not a lazytools rc; import its servers with ${initHint(file)}`;
      return secretName(key) ? `Unrecognized key: ${shownName(key, 'key')}.` : `Unrecognized key: "${shownName(key, 'key')}".${didYouMean(key, known)}`;
    })
    .join('; ') + more;
}

/**
 * The `init` that imports a client config found as the rc. init reads JSON, writes
 * `.lazytoolsrc.json` and overwrites nothing without `--force`: a JSON rc file gets the command
 * that replaces it in place, as printed; the hint alone misled into a refused overwrite.
 */
function initHint(file: string | undefined): string {
  if (file === undefined) return '`lazytools init --from FILE`';
  if (/^\.lazytoolsrc(\.json)?$/.test(path.basename(file))) return `\`lazytools init --from ${file} --out ${file} --force\` (it replaces this file)`;
  return `\`lazytools init --from ${file}\``;
}
