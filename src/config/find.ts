import { realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cosmiconfig, defaultLoaders, defaultLoadersSync, type Loader } from 'cosmiconfig';
import { ConfigError } from '../util/errors.js';
import { jsonFileRefusal, type FileBound } from '../util/json.js';
import { withoutSecrets } from './secrets.js';

/**
 * Finding and reading the project's rc file, unvalidated: where cosmiconfig looks, how large a
 * file it may read, how long a JS or TS rc may take. Validation (zod, load.ts) is a separate
 * step: a gateway answering its opening from start answers keys them by the value read here and
 * loads the schema only after it has answered (app/serve.ts).
 */
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

/** An rc file's value as read, not yet validated, and where it came from (`file` is undefined when none was found). */
export interface FoundConfig {
  /** Undefined when no file was found or the file is empty. */
  value: unknown;
  file: string | undefined;
}

/**
 * Finds and reads the project's rc file (`--config`, else the search from `cwd` up to the
 * project root), without validating it.
 *
 * @throws ConfigError naming the file when it cannot be read, is too large or is no regular file.
 */
export async function findConfig(options: LoadConfigOptions = {}): Promise<FoundConfig> {
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
  if (!result) return { value: undefined, file: undefined };
  return { value: result.isEmpty ? undefined : result.config, file: result.filepath };
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

export function asConfigError(error: unknown, file: string | undefined): ConfigError {
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
