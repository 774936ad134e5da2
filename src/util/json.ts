import { readFile } from 'node:fs/promises';
import { ConfigError } from './errors.js';

/**
 * Reads a JSON file (catalogs, locks, client configs) with a ConfigError naming it on failure,
 * so a missing or broken file is a clear exit-2 message, never a stack trace.
 */
export async function readJsonFile(file: string): Promise<unknown> {
  return (await readJsonBytes(file)).json;
}

/** A file's bytes; a ConfigError naming the file when it cannot be read. */
export async function readBytes(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(code === 'ENOENT' ? 'file not found' : `could not read file (${code ?? String(error)})`, file);
  }
}

/**
 * readJsonFile, with the file's bytes too (what a lock's stamp is keyed by, see lock-stamp.ts);
 * `read` is the file's content when the caller already read it (one read: what was hashed is what is parsed).
 */
export async function readJsonBytes(file: string, read?: Buffer): Promise<{ json: unknown; bytes: Buffer }> {
  const bytes = read ?? (await readBytes(file));
  try {
    return { json: JSON.parse(bytes.toString('utf8')) as unknown, bytes };
  } catch (error) {
    throw new ConfigError(`invalid JSON: ${(error as Error).message}`, file);
  }
}

/** A JSON object (not null, not an array): what untrusted payloads are checked against before use. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
