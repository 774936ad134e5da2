import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cosmiconfig, defaultLoaders, defaultLoadersSync, type Loader } from 'cosmiconfig';
import { z } from 'zod';
import { didYouMean } from '../util/closest.js';
import { ConfigError } from '../util/errors.js';
import { jsonFileRefusal, type FileBound } from '../util/json.js';
import { configSchema, type RcConfig } from './schema.js';
import { keysAt } from './schema-keys.js';
import { pathKey, secretName, shownName, withoutSecrets } from './secrets.js';

/** Where cosmiconfig looks, in order, in each folder from the working directory up to the project root. */
const CONFIG_SEARCH_PLACES = [
  'package.json',
  '.lazytoolsrc',
  '.lazytoolsrc.json',
  '.lazytoolsrc.yaml',
  '.lazytoolsrc.yml',
  '.lazytoolsrc.js',
  '.lazytoolsrc.mjs',
  '.lazytoolsrc.ts',
  'lazytools.config.js',
  'lazytools.config.mjs',
  'lazytools.config.ts',
];

/**
 * Largest rc file lazytools reads. A hand-written rc is a few KiB (the full example, under 10);
 * cosmiconfig reads a file whole and then parses it (a document takes several times its size
 * again), and `serve --watch` reads it on every change: an rc of hundreds of MB (a log redirected
 * into it, a link to a big file) would exhaust the gateway's memory instead of being refused.
 */
export const MAX_RC_BYTES = 4 * 1024 * 1024;

const RC_FILE: FileBound = { max: MAX_RC_BYTES, kind: 'an rc file (a hand-written rc is a few KiB)' };

/** A validated rc file and where it came from (`file` is undefined when none was found). */
export interface LoadedConfig {
  config: RcConfig;
  file: string | undefined;
}

export interface LoadConfigOptions {
  /** Explicit file (`--config`); wins over discovery. */
  file?: string | undefined;
  /** Folder discovery starts from (default: the working directory). */
  cwd?: string | undefined;
  /** Milliseconds a JS or TS rc may take to give its value (default MAX_RC_LOAD_MS). */
  loadTimeoutMs?: number | undefined;
}

/**
 * Longest a JS or TS rc may take to give its value. Its default export may be a promise (a
 * value read from elsewhere first); one that never settles left `lazytools check` ending at
 * once with exit 0 and no output (nothing else kept the process alive: CI passed having checked
 * nothing), or waiting for ever when the file also kept a timer. Past this it is a config error.
 */
export const MAX_RC_LOAD_MS = 30_000;

/**
 * Finds and validates the project's rc file.
 *
 * @example
 * const { config, file } = await loadConfig({ cwd: process.cwd() });
 *
 * @throws ConfigError naming the file, the key path and what was expected.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  let result;
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.file === undefined ? undefined : path.resolve(cwd, options.file);
  await refuseLargeRc(explicit, cwd);
  const ms = options.loadTimeoutMs ?? MAX_RC_LOAD_MS;
  try {
    // Inside the try: cosmiconfig reads package.json for its own meta-config when it is created.
    const explorer = cosmiconfig('lazytools', {
      searchPlaces: CONFIG_SEARCH_PLACES,
      searchStrategy: 'project',
      loaders: { '.js': throwsErrors(loadJsFresh, ms), '.mjs': throwsErrors(loadJsFresh, ms), '.cjs': throwsErrors(loadJsFresh, ms), '.ts': throwsErrors(loadTypeScript, ms), '.mts': throwsErrors(loadTypeScript, ms) },
      cache: false,
    });
    result = explicit ? await explorer.load(explicit) : await explorer.search(cwd);
  } catch (error) {
    throw asConfigError(error, explicit);
  }
  if (!result) return { config: {}, file: undefined };
  if (result.isEmpty) return { config: {}, file: result.filepath };
  try {
    return { config: parseConfig(result.config, result.filepath), file: result.filepath };
  } catch (error) {
    // A JS or TS rc's value is code: a getter or proxy that throws while it is read.
    throw asConfigError(error, result.filepath);
  }
}

/**
 * Refuses, before cosmiconfig reads it whole, an rc over MAX_RC_BYTES or that is no regular file
 * (a link to `/dev/zero` would read for ever): the `--config` file (what `serve --watch` reloads),
 * else the files the search would read, in its order (folders up to the project root), up to the
 * first non-empty one. `package.json` is the project's, not checked. A non-empty file the search
 * then finds empty (`module.exports = undefined`) lets it read on unchecked: rare and operator-made.
 */
async function refuseLargeRc(explicit: string | undefined, cwd: string): Promise<void> {
  if (explicit !== undefined) {
    await checkRcFile(explicit);
    return;
  }
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    for (const place of CONFIG_SEARCH_PLACES) if (place !== 'package.json' && (await checkRcFile(path.join(dir, place)))) return;
    if ((await statOf(path.join(dir, 'package.json'))) || (await statOf(path.join(dir, 'package.yaml'))) || path.dirname(dir) === dir) return;
  }
}

/** A ConfigError naming `file` when it is too large or not a regular file; true when it is a non-empty rc. Missing files and folders are cosmiconfig's to report or skip. */
async function checkRcFile(file: string): Promise<boolean> {
  const info = await statOf(file);
  if (!info || info.isDirectory()) return false;
  const refused = jsonFileRefusal(info, RC_FILE);
  if (refused) throw new ConfigError(refused, file);
  return info.size > 0;
}

async function statOf(file: string): Promise<Stats | undefined> {
  try {
    return await stat(file);
  } catch {
    return undefined;
  }
}

/**
 * A loader whose failures are Errors: a JS or TS rc may throw anything (`throw "x"`, a rejected
 * promise of a number), and cosmiconfig, stamping the file on what was thrown, fails on a
 * string with a TypeError that names neither the file nor what it threw. Its value must come
 * within `ms` (MAX_RC_LOAD_MS); the timer holds the process until then, so an export that never
 * settles is this error, not an exit with nothing said.
 */
function throwsErrors(loader: Loader, ms: number): Loader {
  return async (filepath, content) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ConfigError(`could not read config: its value did not come within ${ms / 1000} s (a default export that is a promise must settle)`, filepath)), ms);
    });
    try {
      return await Promise.race([loader(filepath, content), late]);
    } catch (error) {
      throw error instanceof Error ? error : new Error(`the file threw ${typeof error === 'string' ? JSON.stringify(error) : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  };
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
  if (parsed.success) return parsed.data;
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

/** How often each JS rc file was loaded in this process. */
const jsLoads = new Map<string, number>();

/**
 * A JS rc read afresh on every load after the first (serve --watch reloads it): Node keeps an
 * imported module by URL (a CommonJS one by path), so a reload got the first version of the file
 * for ever while the gateway logged "reloaded". A reload imports it under a URL of its own, which
 * costs the module cache one small module; modules the rc imports are not re-read.
 */
const loadJsFresh: Loader = async (filepath, content) => {
  const real = await realpath(filepath);
  const loads = (jsLoads.get(real) ?? 0) + 1;
  jsLoads.set(real, loads);
  if (loads === 1) return defaultLoaders['.js'](filepath, content);
  delete createRequire(import.meta.url).cache[real];
  try {
    return ((await import(`${pathToFileURL(real).href}?reload=${loads}`)) as { default?: unknown }).default;
  } catch (error) {
    // Then required afresh, as cosmiconfig does (CommonJS in a "type": "module" package), and
    // its error is the one shown unless the file is ESM that require cannot read.
    try {
      return defaultLoadersSync['.js'](filepath, content);
    } catch (requireError) {
      const esm = (requireError as NodeJS.ErrnoException).code === 'ERR_REQUIRE_ESM' || (requireError instanceof SyntaxError && requireError.message.includes('Cannot use import statement outside a module'));
      throw esm ? error : requireError;
    }
  }
};

/** TypeScript configs load through jiti, so they work on Node 20 without a compile step. */
const loadTypeScript: Loader = async (filepath) => {
  const { createJiti } = await import('jiti');
  const jiti = createJiti(import.meta.url, { interopDefault: true, moduleCache: false });
  return jiti.import(filepath, { default: true });
};

function asConfigError(error: unknown, file: string | undefined): ConfigError {
  if (error instanceof ConfigError) return error;
  const err = error as NodeJS.ErrnoException & { filepath?: string };
  if (err.code === 'ENOENT') return new ConfigError(`config file not found`, file ?? err.path);
  const raw = String(err.message ?? error);
  const where = err.filepath ?? /^(?:JSON|YAML) Error in (.+?):\s*$/m.exec(raw)?.[1] ?? file;
  return new ConfigError(`could not read config: ${withoutSecrets(parseErrorText(raw))}\nFix the file, or pass --config FILE to use another one.`, where);
}

/**
 * cosmiconfig's parse errors repeat the code frame around the message and quote the whole input
 * ("while parsing '...'"): keep the message once, then the frame once. The frame comes without
 * colors: where the parser thinks the terminal has some (`CI`, `FORCE_COLOR`), they would reach
 * logs and files as escape codes.
 */
function parseErrorText(raw: string): string {
  const blocks = raw
    // eslint-disable-next-line no-control-regex -- ANSI color escapes are exactly what is removed
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/^(?:JSON|YAML) Error in [^\n]*:[ \t]*\n*/, '')
    .split('\n')
    .filter((line) => !/^\s+at /.test(line))
    .join('\n')
    .split(/\n[ \t]*\n/)
    .map((block) => block.replace(/\s+while parsing '[\s\S]*$/, '').replace(/\s+$/, ''))
    .filter((block) => block.trim() !== '');
  const unique = [...new Set(blocks)];
  const isFrame = (block: string) => /^[ \t>]*\d+ \|/.test(block);
  const messages = unique.filter((block) => !isFrame(block));
  const frames = unique.filter(isFrame);
  return [...messages, ...frames.slice(0, 1)].join('\n');
}
