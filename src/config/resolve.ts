import { ConfigError } from '../util/errors.js';
import { didYouMean } from '../util/closest.js';
import { dictionary, own } from '../util/own.js';
import type { TokenizerName } from '../util/tokens.js';
import { loadPresets, type Presets } from './presets.js';
import type { DefinitionsSetting, EmbeddingsConfig, GroupConfig, ModeConfig, RcConfig, ServerConfig, Strategy, ToolOverride } from './schema.js';
import { quotedName, secretName, shownName } from './secrets.js';
import { refuseBrokenReferences } from './env.js';

/** A mode after presets, rc overrides and `extends` are folded together. */
export interface ResolvedMode {
  name: string;
  description: string;
  aliases: string[];
  /** Typical tasks (rc `tasks`, else the parent's): with the description, what fitting ranks tools against. */
  tasks: string[];
  groups: string[];
  readOnly: boolean;
  budget: number | undefined;
  /** The most a large catalog lets the mode spend (rc `maxBudget`); undefined: `budget`. See focus/fit.ts. */
  maxBudget: number | undefined;
  /** Fit the shown tools to the budget (rc `fit`, default true; see focus/fit.ts). */
  fit: boolean;
  /** Fitting also ranks the tools closest to the mode's work that its groups leave out (rc `fill`). See focus/fit.ts. */
  fill: boolean;
  /** Globs on `server:tool` ids this mode never holds back (rc `pin`, with the parent's). */
  pin: string[];
  /** Readers or writers first among equals when fitting (rc `lean`); undefined: decided by the mode's tools. */
  lean: 'read' | 'write' | undefined;
}

/** Everything the rest of lazytools reads from configuration, with defaults applied. */
export interface ResolvedConfig {
  file: string | undefined;
  servers: Record<string, ServerConfig>;
  groups: Record<string, GroupConfig>;
  /** Groups the rc file defines or names in its modes (the ones worth a warning when empty). */
  rcGroups: string[];
  modes: Record<string, ResolvedMode>;
  defaultMode: string;
  alwaysVisible: string[];
  strategy: Strategy;
  tokenizer: TokenizerName;
  prefix: 'auto' | 'always';
  /** Whether clients list compact definitions (rc `definitions`, default compact). */
  definitions: DefinitionsSetting;
  tools: Record<string, ToolOverride>;
  hiddenTools: 'allow' | 'reject';
  /** Cap on tools search made visible in one session (rc `discovery.maxEnabled`). */
  maxDiscovered: number;
  /** An embeddings endpoint search adds meaning from (rc `discovery.embeddings`), with defaults applied. */
  embeddings: EmbeddingsSettings | undefined;
  usage: boolean;
  /** Hold back tools whose live definition differs from the lock (rc `pin`). */
  pin: boolean;
  /** Bearer tokens (by label) mapped to modes; empty when the rc maps none. */
  tokens: TokenGrant[];
  /** sha256 (lower-case hex) of the bearer token of /readyz and /metrics (rc `auth.operator`). */
  operatorToken?: string | undefined;
  /** Modes offered as server variants (SEP-2053 draft), or undefined when variants are off. */
  variants: string[] | undefined;
  /** ttlMs of 2026-07-28 list results. */
  cacheTtlMs: number;
  /**
   * Decayed call counts per mode and tool id from the usage record, when rc `usage` is on and
   * the record was read at start (`withUsage`); a signal of budget fitting (focus/fit.ts).
   */
  usageWeights?: UsageWeights | undefined;
  /** How long a server's start may take unless its entry says otherwise (rc `startTimeout`). */
  startTimeoutMs: number;
  /** Names or globs of our variables stdio servers get unless their entry sets its own list. */
  envPassthrough: string[];
  /** Serve /metrics over HTTP (rc `metrics`). */
  metrics: boolean;
}

/** rc `discovery.embeddings` with its defaults (search/embeddings.ts reads it). */
export type EmbeddingsSettings = EmbeddingsConfig & { weight: number; timeoutMs: number; /** The rc file, for errors naming it. */ file?: string | undefined };

/** Decayed call counts: mode -> `server:tool` id -> weight. */
export type UsageWeights = ReadonlyMap<string, ReadonlyMap<string, number>>;

/** A bearer token of `auth.tokens`: its label, sha256 (lower-case hex) and the modes it may use. */
export interface TokenGrant {
  label: string;
  sha256: string;
  modes: string[];
}

/** Modes an `extends` chain may hold (a chain that long is a mistake or an attack, never a design). */
const MAX_EXTENDS_DEPTH = 64;

/** The mode a session starts in when the rc names none. */
const DEFAULT_MODE = 'development';

/**
 * Folds presets and an rc file into one configuration: rc groups replace presets of the same
 * name, rc modes merge key by key over presets (`{"modes":{"security_review":{"budget":100}}}`
 * changes only the budget), `extends` adds the parent's groups.
 *
 * @throws ConfigError for unknown groups, modes or `extends` cycles, with the closest names.
 */
export function resolveConfig(rc: RcConfig, file?: string, presets: Presets = loadPresets()): ResolvedConfig {
  // Prototype-free records: a name such as "toString" is either defined here or unknown.
  const groups = dictionary([...Object.entries(presets.groups), ...Object.entries(rc.groups ?? {})]);
  const merged = dictionary<ModeConfig>();
  for (const [name, mode] of Object.entries(presets.modes)) merged[name] = { ...mode };
  for (const [name, mode] of Object.entries(rc.modes ?? {})) {
    const preset = own(merged, name);
    // A budget set in the rc is the user's: the preset's room to grow on large catalogs goes with the preset's budget.
    const keepsGrowth = mode.budget === undefined || mode.maxBudget !== undefined;
    merged[name] = { ...(preset && !keepsGrowth ? { ...preset, maxBudget: undefined } : preset), ...mode };
  }

  const modes = dictionary<ResolvedMode>();
  const resolving = new Set<string>();
  const resolve = (name: string): ResolvedMode => {
    const done = own(modes, name);
    if (done) return done;
    const mode = own(merged, name);
    if (!mode) throw new ConfigError(`unknown mode ${quotedName(name)}`, file);
    if (resolving.has(name)) throw new ConfigError(`modes.${shownName(name)}.extends: cycle (${[...resolving, name].map((mode) => shownName(mode)).join(' -> ')})`, file);
    // Resolution recurses along the chain: 20,000 modes each extending the next overflowed the stack.
    if (resolving.size >= MAX_EXTENDS_DEPTH) throw new ConfigError(`modes.${shownName([...resolving].at(-1) ?? name)}.extends: a chain of more than ${MAX_EXTENDS_DEPTH} modes; expected at most ${MAX_EXTENDS_DEPTH}`, file);
    resolving.add(name);
    let parent: ResolvedMode | undefined;
    if (mode.extends !== undefined) {
      if (!own(merged, mode.extends)) throw new ConfigError(`modes.${shownName(name)}.extends: unknown mode ${quotedName(mode.extends)}${hint(mode.extends, Object.keys(merged))}`, file);
      parent = resolve(mode.extends);
    }
    if (mode.groups === undefined && parent === undefined)
      throw new ConfigError(`modes.${shownName(name)}: expected "groups" (a list of group names) or "extends"`, file);
    const ownGroups = mode.groups ?? [];
    ownGroups.forEach((group, index) => {
      if (!own(groups, group)) throw new ConfigError(`modes.${shownName(name)}.groups[${index}]: unknown group ${quotedName(group)}${hint(group, Object.keys(groups))}`, file);
    });
    const resolved: ResolvedMode = {
      name,
      description: mode.description ?? parent?.description ?? name,
      aliases: mode.aliases ?? [],
      tasks: mode.tasks ?? parent?.tasks ?? [],
      groups: unique([...(parent?.groups ?? []), ...ownGroups]),
      readOnly: mode.readOnly ?? parent?.readOnly ?? false,
      budget: mode.budget ?? parent?.budget ?? rc.budget,
      maxBudget: mode.maxBudget ?? (mode.budget === undefined ? parent?.maxBudget : undefined),
      fit: mode.fit ?? parent?.fit ?? true,
      fill: mode.fill ?? parent?.fill ?? false,
      pin: unique([...(parent?.pin ?? []), ...(mode.pin ?? [])]),
      lean: mode.lean ?? parent?.lean,
    };
    resolving.delete(name);
    modes[name] = resolved;
    return resolved;
  };
  for (const name of Object.keys(merged).sort()) resolve(name);

  const defaultMode = rc.defaultMode ?? DEFAULT_MODE;
  if (!own(modes, defaultMode)) throw new ConfigError(`defaultMode: unknown mode ${quotedName(defaultMode)}${hint(defaultMode, Object.keys(modes))}`, file);
  const knownMode = (name: string, path: string) => {
    if (!own(modes, name)) throw new ConfigError(`${path}: unknown mode ${quotedName(name)}${hint(name, Object.keys(modes))}`, file);
  };
  const tokens: TokenGrant[] = [];
  const hashes = new Map<string, string>();
  for (const [label, grant] of Object.entries(rc.auth?.tokens ?? {})) {
    grant.modes.forEach((mode, index) => knownMode(mode, `auth.tokens.${shownName(label)}.modes[${index}]`));
    const sha256 = grant.sha256.toLowerCase();
    const twin = hashes.get(sha256);
    if (twin !== undefined) throw new ConfigError(`auth.tokens.${shownName(label)}.sha256: the same token as auth.tokens.${shownName(twin)}: expected one entry per token`, file);
    hashes.set(sha256, label);
    tokens.push({ label, sha256, modes: unique(grant.modes) });
  }
  const operatorToken = rc.auth?.operator?.sha256.toLowerCase();
  if (operatorToken !== undefined && hashes.has(operatorToken))
    throw new ConfigError(`auth.operator.sha256: the same token as auth.tokens.${shownName(hashes.get(operatorToken) ?? '')}: the operator's token must be its own`, file);
  (rc.variants?.modes ?? []).forEach((mode, index) => knownMode(mode, `variants.modes[${index}]`));
  refuseCaseTwins(Object.keys(rc.servers ?? {}), file);
  refuseBrokenReferences(rc, file);
  const variants = rc.variants?.enabled ? unique(rc.variants.modes ?? Object.keys(modes)) : undefined;

  return {
    file,
    servers: dictionary(Object.entries(rc.servers ?? {})),
    groups,
    rcGroups: [...new Set([...Object.keys(rc.groups ?? {}), ...Object.values(rc.modes ?? {}).flatMap((mode) => mode.groups ?? [])])],
    modes,
    defaultMode,
    alwaysVisible: rc.alwaysVisible ?? [],
    strategy: rc.strategy ?? 'auto',
    tokenizer: rc.tokenizer ?? 'o200k_base',
    prefix: rc.prefix ?? 'auto',
    definitions: rc.definitions ?? 'compact',
    tools: dictionary(Object.entries(rc.tools ?? {})),
    hiddenTools: rc.policy?.hiddenTools ?? 'allow',
    maxDiscovered: rc.discovery?.maxEnabled ?? 20,
    embeddings: rc.discovery?.embeddings && { ...rc.discovery.embeddings, weight: rc.discovery.embeddings.weight ?? 0.25, timeoutMs: rc.discovery.embeddings.timeoutMs ?? 1500, file },
    usage: rc.usage ?? false,
    pin: rc.pin ?? false,
    tokens,
    operatorToken,
    variants,
    cacheTtlMs: rc.cache?.ttlMs ?? 60_000,
    startTimeoutMs: rc.startTimeout ?? 30_000,
    envPassthrough: rc.envPassthrough ?? [],
    metrics: rc.metrics ?? false,
  };
}

/**
 * The closest names to a mistyped one, else the known names: none that looks like a secret, each
 * cut (shownName), and at most KNOWN_LISTED of them, so the error stays a line or two however
 * many groups or modes the rc has.
 */
function hint(input: string, names: string[]): string {
  const shown = names.filter((name) => !secretName(name));
  const listed = shown.sort().slice(0, KNOWN_LISTED).map((name) => shownName(name));
  return `.${didYouMean(input, shown) || ` Known: ${listed.join(', ')}${shown.length > KNOWN_LISTED ? ` and ${shown.length - KNOWN_LISTED} more` : ''}.`}`;
}

/** Names a config error lists when none is close to the one asked for. */
const KNOWN_LISTED = 30;

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/**
 * Server names that differ only in case are one name to every glob (util/glob.ts matches
 * whatever the case: a group's `servers` and `tools`, `exclude`, `pin`, `alwaysVisible`), so a
 * group written for "notes" took every tool of "NOTES" too, and a bearer token of a mode of that
 * group reached a server its rc never gave it. A config error naming both.
 */
function refuseCaseTwins(servers: readonly string[], file: string | undefined): void {
  const folded = new Map<string, string>();
  for (const name of servers) {
    const twin = folded.get(name.toLowerCase());
    if (twin !== undefined)
      throw new ConfigError(`servers.${shownName(name)}: the same name as servers.${shownName(twin)} but for case; globs (a group's servers and tools, exclude, pin, alwaysVisible) match server names whatever their case, so each would take the other's tools: expected names that differ in more than case`, file);
    folded.set(name.toLowerCase(), name);
  }
}
