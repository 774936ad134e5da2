import path from 'node:path';
import { cosmiconfig, type Loader } from 'cosmiconfig';
import { z } from 'zod';
import { ConfigError } from '../util/errors.js';
import { configSchema, type RcConfig } from './schema.js';

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
  const explorer = cosmiconfig('lazytools', {
    searchPlaces: CONFIG_SEARCH_PLACES,
    searchStrategy: 'project',
    loaders: { '.ts': loadTypeScript, '.mts': loadTypeScript },
    cache: false,
  });
  let result;
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.file === undefined ? undefined : path.resolve(cwd, options.file);
  try {
    result = explicit ? await explorer.load(explicit) : await explorer.search(cwd);
  } catch (error) {
    throw asConfigError(error, explicit);
  }
  if (!result) return { config: {}, file: undefined };
  if (result.isEmpty) return { config: {}, file: result.filepath };
  return { config: parseConfig(result.config, result.filepath), file: result.filepath };
}

/**
 * Validates a config object against the rc schema.
 *
 * @throws ConfigError whose message lists each problem with its key path.
 */
export function parseConfig(value: unknown, file?: string): RcConfig {
  const parsed = configSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ConfigError(`invalid config\n${z.prettifyError(parsed.error)}`, file);
}

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
  const where = err.filepath ?? file;
  const message = String(err.message ?? error)
    .replace(/^JSON Error in [^:]+:\s*/, '')
    .replace(/^YAML Error in [^:]+:\s*/, '')
    .split('\n')
    .filter((line) => !/^\s+at /.test(line))
    .join('\n')
    .trim();
  return new ConfigError(`could not read config: ${message}`, where);
}
