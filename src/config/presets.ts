import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../util/errors.js';
import { packageRoot } from '../util/root.js';
import { dictionary } from '../util/own.js';
import { groupSchema, key, modeSchema, type GroupConfig, type ModeConfig } from './schema.js';

/** The folder of preset modes and groups shipped with the package. */
const PRESETS_DIR = path.join(packageRoot(), 'modes');

/** Preset modes and groups, as shipped in `modes/`. */
export interface Presets {
  modes: Record<string, ModeConfig>;
  groups: Record<string, GroupConfig>;
}

let cached: Presets | undefined;
let groupsFileSchema: z.ZodType<{ groups: Record<string, GroupConfig> }> | undefined;
let modeFileSchema: z.ZodType<ModeConfig> | undefined;

/**
 * Reads `modes/*.json` (one file per mode) and `modes/groups.json`, validated with the rc
 * schemas so a broken preset fails as loudly as a broken rc file.
 */
export function loadPresets(dir: string = PRESETS_DIR): Presets {
  if (dir === PRESETS_DIR && cached) return cached;
  const modes: Record<string, ModeConfig> = dictionary();
  let groups: Record<string, GroupConfig> = dictionary();
  for (const entry of readdirSync(dir).sort()) {
    if (!entry.endsWith('.json')) continue;
    const file = path.join(dir, entry);
    const json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (entry === 'groups.json') {
      groupsFileSchema ??= z.strictObject({ $schema: z.string().optional(), groups: z.record(key, groupSchema) });
      groups = dictionary(Object.entries(parse(groupsFileSchema, json, file).groups));
    } else {
      // A preset's name is its file's: held to the rc's rule for mode names ("__proto__.json" is none).
      const name = entry.slice(0, -'.json'.length);
      if (!key.safeParse(name).success) throw new ConfigError(`invalid preset: "${name}" is not a mode name (letters, digits, "_" or "-", at most 64 characters)`, file);
      modes[name] = parse(modeFileSchema ??= modeSchema.extend({ $schema: z.string().optional() }), json, file);
    }
  }
  const presets = { modes, groups };
  if (dir === PRESETS_DIR) cached = presets;
  return presets;
}

function parse<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  // jitless: each schema parses a handful of small files once per process, where compiling a
  // fast path (zod's default) costs more than it saves (start-up time).
  const result = schema.safeParse(value, { jitless: true });
  if (!result.success) throw new ConfigError(`invalid preset\n${z.prettifyError(result.error)}`, file);
  return result.data;
}
