import { createHash } from 'node:crypto';
import type { ResolvedConfig } from '../config/resolve.js';
import { TOPICS, VERB_VOCABULARY } from '../config/topics.js';
import { dictionary } from '../util/own.js';
import { VERSION } from '../util/version.js';
import type { Catalog, GroupPlacement, ServerTools, ToolDefinition } from './types.js';
import { PLACEMENT_REVISION, PLACEMENT_THRESHOLD, scoreTopics, type PlacementInput, type TopicScore } from './placement.js';
import { writeStatus, type WriteStatus } from './read-only.js';
import { writeStamp, type LockStamp } from './lock-stamp.js';
import { placementCode } from './placement-code.js';
import { profilesDigestInput } from './profiles.js';
import { toolTitle } from './text.js';
import { sharedString } from '../util/flat.js';

/**
 * Placement results kept between runs. Scoring topics and matching groups is most of building a
 * catalog (about 50 ms of CPU per 1,000 tools: BENCHMARKS.md, Placement), and a gateway started
 * on a lock file would redo it on every start before its first answer. `lazytools lock` therefore records each tool's placement
 * in the lock's `placement` section, and reading the lock seeds the in-memory caches with every
 * entry that still fits:
 *
 * - topics and write status are kept when the entry's `input` digest equals the digest of what
 *   placement reads of the tool now (server, name, title, description, annotations, schema field
 *   names) and the section's `version` equals this lazytools' placement version (package version,
 *   placement revision and vocabulary);
 * - group placements are kept when, in addition, the section's `groups` digest equals that of the
 *   groups the catalog is built with and the entry's `summary` equals the tool's summary now (an
 *   rc `tools.<id>.summary` changes what keywords match).
 *
 * The lock is data, not proof: write status and topics (what read-only modes and topic groups
 * rest on) are recomputed and an entry that disagrees is dropped, and each cached group placement
 * is confirmed against the group when the catalog is built (catalog.ts), so a forged entry can
 * neither make a writer read-only nor move a tool into a group.
 *
 * A stamp outside the project (lock-stamp.ts) records a lock whose every entry verified, so a
 * later start of the same bytes skips the topic recompute and the group confirmations; the write
 * status is recomputed on every start.
 *
 * Anything else (a hand-edited tool, an rc with other groups, a newer lazytools, a malformed
 * entry) is recomputed as if there were no cache: the cache changes how fast, never what.
 */

/** Write status and topic scores of one tool. */
export interface Placed {
  write: WriteStatus;
  topics: TopicScore[];
}

/** One tool's cached placement in a lock file. */
export interface CachedPlacement {
  /** Digest of what placement reads of the tool (see `placementInputDigest`). */
  input: string;
  write: WriteStatus;
  topics: TopicScore[];
  /** The summary the group placements were matched with (keywords match it). */
  summary?: string;
  /** The tool's groups, in config order, under the section's `groups` digest. */
  groups?: GroupPlacement[];
}

/** The lock's `placement` section: per server, per tool name, its cached placement. */
export interface LockPlacement {
  /** `placementVersion()` of the lazytools that wrote it. */
  version: string;
  /** `groupsDigest()` of the groups the entries' `groups` were matched against, when recorded. */
  groups?: string;
  servers: Record<string, Record<string, CachedPlacement>>;
}

/**
 * One definition's placement on one server under one title. A definition is nearly always placed
 * for one server and title, so the first is kept as it is and only further ones go to a map:
 * a map per definition (and its key string) was about 270 bytes per tool, 2.7 MB at 10,000.
 */
interface PlacedFor {
  server: string;
  /** The title placement read, '' for none (as in placedKey). */
  title: string;
  placed: Placed;
  /** Placements under other servers or titles, by placedKey. */
  others: Map<string, Placed> | undefined;
}

const placedCache = new WeakMap<ToolDefinition, PlacedFor>();

function cachedPlaced(tool: ToolDefinition, server: string, title: string | undefined): Placed | undefined {
  const entry = placedCache.get(tool);
  if (!entry) return undefined;
  return entry.server === server && entry.title === (title ?? '') ? entry.placed : entry.others?.get(placedKey(server, title));
}

function cachePlaced(tool: ToolDefinition, server: string, title: string | undefined, placed: Placed): void {
  const entry = placedCache.get(tool);
  if (!entry) placedCache.set(tool, { server, title: title ?? '', placed, others: undefined });
  else if (entry.server === server && entry.title === (title ?? '')) entry.placed = placed;
  else (entry.others ??= new Map()).set(placedKey(server, title), placed);
}

/**
 * Write status and topic scores of a definition, computed once per definition object and server
 * (and title): the gateway rebuilds its catalog whenever an upstream comes up or changes its tools,
 * and the other upstreams' definitions are the same objects. A lock's cache seeds this map.
 */
export function placementOf(tool: ToolDefinition, input: PlacementInput): Placed {
  let placed = cachedPlaced(tool, input.server, input.title);
  if (!placed) cachePlaced(tool, input.server, input.title, (placed = kept(writeStatus(input), scoreTopics(input))));
  return placed;
}

/**
 * A placement as kept for as long as the gateway runs: arrays of their exact length (one grown by
 * push holds room for 17) and reasons shared among tools (util/flat.ts sharedString).
 */
function kept(write: WriteStatus, topics: readonly TopicScore[]): Placed {
  return {
    write: { readOnly: write.readOnly, kind: write.kind, reason: sharedString(write.reason) },
    topics: topics.map((t) => ({ topic: sharedString(t.topic), score: t.score, reason: sharedString(t.reason) })),
  };
}

function placedKey(server: string, title: string | undefined): string {
  return `${server}\u0000${title ?? ''}`;
}

interface GroupedEntry {
  server: string;
  groups: string;
  summary: string;
  placements: GroupPlacement[];
  /** The verification of the lock the entry came from, when it may earn or has a stamp. */
  check?: LockCheck;
}

/** One lock read's verification, so a lock whose every entry verified gets its stamp. */
interface LockCheck {
  folder: string;
  key: string;
  /** Group digests the stamp vouches for; undefined while the lock has no stamp. */
  trusted: Set<string> | undefined;
  /** False once an entry failed: such a lock never gets (or extends) a stamp. */
  clean: boolean;
  /** Tools seeded with group placements, and those confirmed per groups digest. */
  grouped: number;
  confirmed: Map<string, Set<ToolDefinition>>;
  failed: Set<string>;
}

const groupedCache = new WeakMap<ToolDefinition, GroupedEntry>();

/**
 * The cached group placements of a definition, when they were matched on `server` against the
 * groups whose digest is `groups`, with the same `summary`, and `confirm` (one group test per
 * placement, see confirmsPlacements) accepts them or the lock's stamp vouches for them; else
 * undefined (match them afresh). A lock whose every seeded tool is confirmed under `groups` gets
 * that digest added to its stamp.
 */
export function confirmedGroupPlacements(tool: ToolDefinition, server: string, groups: string, summary: string, confirm: (placements: readonly GroupPlacement[]) => boolean): GroupPlacement[] | undefined {
  const entry = groupedCache.get(tool);
  if (!entry || entry.server !== server || entry.groups !== groups || entry.summary !== summary) return undefined;
  const check = entry.check;
  if (check?.trusted?.has(groups)) return entry.placements;
  const confirmed = confirm(entry.placements);
  if (check?.clean) {
    if (!confirmed) check.failed.add(groups);
    let done = check.confirmed.get(groups);
    if (!done) check.confirmed.set(groups, (done = new Set()));
    if (confirmed) done.add(tool);
    if (done.size === check.grouped && !check.failed.has(groups)) {
      (check.trusted ??= new Set()).add(groups);
      writeStamp(check.folder, check.key, check.trusted);
    }
  }
  return confirmed ? entry.placements : undefined;
}

/** True when some definition carries cached group placements (so computing the groups digest pays). */
export function hasCachedGroupPlacements(tool: ToolDefinition): boolean {
  return groupedCache.has(tool);
}

let version: string | undefined;

/**
 * Changes whenever placement may score differently: with the package version, with the placement
 * code itself (placement-code.ts: a digest of its modules), with `PLACEMENT_REVISION` and with
 * the vocabulary (topics and every verb list: a verb moved between lists changes verdicts) and
 * server profiles.
 */
export function placementVersion(): string {
  version ??= `${VERSION}+${PLACEMENT_REVISION}+${placementCode()}+${digest(JSON.stringify([TOPICS, VERB_VOCABULARY, PLACEMENT_THRESHOLD, profilesDigestInput()]))}`;
  return version;
}

/** Digest of the groups a catalog is built with (in config order) under this placement version. */
export function groupsDigest(config: Pick<ResolvedConfig, 'groups'>): string {
  return digest(JSON.stringify([placementVersion(), Object.entries(config.groups)]));
}

/** Digest of everything placement reads of one tool on one server. */
export function placementInputDigest(server: string, tool: ToolDefinition): string {
  const properties = tool.inputSchema?.properties;
  const fields = properties && typeof properties === 'object' ? Object.keys(properties) : [];
  return digest(JSON.stringify([server, tool.name, toolTitle(tool) ?? null, tool.description ?? null, tool.annotations ?? null, fields]));
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/**
 * Group placements a lock caches at most, over all its tools: 5,000 rc groups each holding all of
 * 3,000 tools are 15 million, a lock JSON past V8's string limit (`lock` failed) and seconds to
 * read on every start; a real stack's catalog places a few thousand.
 */
export const MAX_LOCK_GROUP_PLACEMENTS = 200_000;

/**
 * The `placement` section of a lock: every tool's write status and topics, and when `built` (the
 * catalog of these sources and the config it was built with) is given, each tool's group
 * placements under that config's groups. Tools a catalog left out (name collisions) get no groups.
 */
export function lockPlacement(sources: readonly ServerTools[], built?: { catalog: Catalog; config: Pick<ResolvedConfig, 'groups'> }): LockPlacement {
  const servers = dictionary<Record<string, CachedPlacement>>();
  // Group placements are a cache (a start without them matches the groups afresh): past
  // MAX_LOCK_GROUP_PLACEMENTS the lock keeps none rather than grow with tools x groups.
  if (built && built.catalog.tools.reduce((sum, tool) => sum + tool.placements.length, 0) > MAX_LOCK_GROUP_PLACEMENTS) built = undefined;
  for (const source of sources) {
    const entries = dictionary<CachedPlacement>();
    for (const tool of source.tools) {
      const title = toolTitle(tool);
      const { write, topics } = placementOf(tool, { server: source.server, name: tool.name, title, description: tool.description, annotations: tool.annotations, inputSchema: tool.inputSchema });
      const entry: CachedPlacement = { input: placementInputDigest(source.server, tool), write, topics };
      const catalogTool = built?.catalog.byId.get(`${source.server}:${tool.name}`);
      if (catalogTool) {
        entry.summary = catalogTool.summary;
        // The lock's own copies: a catalog shares one frozen placement among the tools a selector places.
        entry.groups = catalogTool.placements.map((placement) => ({ ...placement }));
      }
      entries[tool.name] = entry;
    }
    servers[source.server] = entries;
  }
  return { version: placementVersion(), ...(built ? { groups: groupsDigest(built.config) } : {}), servers };
}

/**
 * Seeds the in-memory caches from a lock's `placement` section for the tools of `sources` (the
 * same objects buildCatalog will see). Entries that do not fit the tool now, or are malformed,
 * are skipped. With `stamp` (the lock's, see lock-stamp.ts) found, topics and input digests are
 * taken as verified; without one, a lock whose every entry verifies gets a stamp in `folder`.
 * Returns how many tools were seeded. Never throws: a lock is user-editable.
 */
export function primePlacement(section: unknown, sources: readonly ServerTools[], warn: (message: string) => void = () => {}, stamp?: { folder: string; stamp: LockStamp }): number {
  if (!isRecord(section) || section.version !== placementVersion() || !isRecord(section.servers)) return 0;
  const groups = typeof section.groups === 'string' ? section.groups : undefined;
  const check: LockCheck | undefined = stamp && { folder: stamp.folder, key: stamp.stamp.key, trusted: stamp.stamp.groups, clean: true, grouped: 0, confirmed: new Map(), failed: new Set() };
  const stamped = check?.trusted !== undefined;
  const drop = (message?: string) => {
    if (message) warn(message);
    if (check) check.clean = false;
  };
  let primed = 0;
  for (const source of sources) {
    const entries = ownValue(section.servers, source.server);
    if (!isRecord(entries)) continue;
    for (const tool of source.tools) {
      const entry = ownValue(entries, tool.name);
      if (entry === undefined) continue;
      if (!isCachedPlacement(entry)) {
        drop(`placement.servers.${source.server}.${tool.name}: malformed cached placement, computed afresh`);
        continue;
      }
      if (!stamped && entry.input !== placementInputDigest(source.server, tool)) {
        drop();
        continue;
      }
      // The lock is data, not proof: the write status (what read-only modes trust) is recomputed
      // (cheap) and an entry that disagrees is dropped whole, so a hand-edited "read" never
      // makes a writer read-only.
      const title = toolTitle(tool);
      const write = writeStatus({ server: source.server, name: tool.name, title, description: tool.description, annotations: tool.annotations, inputSchema: tool.inputSchema });
      if (write.readOnly !== entry.write.readOnly || write.kind !== entry.write.kind || write.reason !== entry.write.reason) {
        drop(`placement.servers.${source.server}.${tool.name}: cached write status "${entry.write.kind}" does not match its definition ("${write.kind}"); the tool is placed afresh`);
        continue;
      }
      // Topics decide topic groups (what a mode shows, and so what its token may call): recomputed
      // too (unless the lock's stamp says these bytes verified), and an entry whose topics
      // disagree is dropped whole with its group placements.
      const topics = stamped ? entry.topics : scoreTopics({ server: source.server, name: tool.name, title, description: tool.description, annotations: tool.annotations, inputSchema: tool.inputSchema });
      if (!stamped && !sameTopics(topics, entry.topics)) {
        drop(`placement.servers.${source.server}.${tool.name}: cached topics do not match its definition; the tool is placed afresh`);
        continue;
      }
      cachePlaced(tool, source.server, title, kept(write, topics));
      if (groups !== undefined && entry.summary !== undefined && entry.groups !== undefined) {
        const placements = entry.groups.map((g): GroupPlacement => (g.score === undefined ? { group: sharedString(g.group), reason: sharedString(g.reason) } : { group: sharedString(g.group), reason: sharedString(g.reason), score: g.score }));
        groupedCache.set(tool, { server: source.server, groups, summary: entry.summary, placements, ...(check ? { check } : {}) });
        if (check) check.grouped++;
      }
      primed++;
    }
  }
  if (check?.clean && !stamped) {
    check.trusted = new Set();
    writeStamp(check.folder, check.key, check.trusted);
  }
  return primed;
}

function sameTopics(computed: readonly TopicScore[], cached: readonly TopicScore[]): boolean {
  return computed.length === cached.length && computed.every((t, i) => t.topic === cached[i]?.topic && t.score === cached[i]?.score && t.reason === cached[i]?.reason);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ownValue(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function isCachedPlacement(value: unknown): value is CachedPlacement {
  if (!isRecord(value) || typeof value.input !== 'string') return false;
  const write = value.write;
  if (!isRecord(write) || typeof write.readOnly !== 'boolean' || typeof write.reason !== 'string' || !(write.kind === 'read' || write.kind === 'write' || write.kind === 'unknown')) return false;
  if (!Array.isArray(value.topics) || !value.topics.every(isTopicScore)) return false;
  if (value.summary !== undefined && typeof value.summary !== 'string') return false;
  if (value.groups !== undefined && !(Array.isArray(value.groups) && value.groups.every(isGroupPlacement))) return false;
  return true;
}

function isTopicScore(value: unknown): value is TopicScore {
  return isRecord(value) && typeof value.topic === 'string' && typeof value.score === 'number' && Number.isFinite(value.score) && typeof value.reason === 'string';
}

function isGroupPlacement(value: unknown): value is GroupPlacement {
  return isRecord(value) && typeof value.group === 'string' && typeof value.reason === 'string' && (value.score === undefined || (typeof value.score === 'number' && Number.isFinite(value.score)));
}
