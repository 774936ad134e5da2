import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { contentDigest } from '../catalog/lock-stamp.js';
import { addCloseListener } from '../util/close.js';
import { userCacheFolder, writeCacheFile } from '../util/user-cache.js';
import { isObject } from '../util/json.js';
import { plainJson } from '../util/plain-json.js';
import { isNotification, isRequest, isResponse, type RequestId } from '../protocol/jsonrpc.js';
import type { Logger } from '../util/log.js';
import { serialize } from '../protocol/lines.js';
import { VERSION } from '../util/version.js';
import type { StdioFrontTransport } from './stdio.js';

/**
 * Start answers: a stdio gateway on a lock answers a client's opening exchange (`initialize`,
 * then the first `tools/list`) from what an earlier start with the same inputs answered, and
 * builds its catalog after. Building the catalog of a 10,000-tool lock (parsing 18.6 MB,
 * summaries, placement, fitting, the first page) costs about a second of CPU, mostly garbage
 * collection; a client waits for none of it when the answers are known.
 *
 * What is known: both answers depend only on the lock's bytes, the rc file's value as read
 * (not yet validated: the schema loads after the answers, app/serve.ts) and the state of its
 * usage file, `--mode`/`--strategy`, the environment (servers disabled by an unset variable), the
 * working folder, this build of lazytools, and the client's initialize params and tools/list
 * params. An entry is named by a sha256 over all of them, in the user's cache folder (never the
 * project: see lock-stamp.ts), so any change is a miss that takes the full path and records a
 * new entry. An entry is only written when every server is served from the lock (none starts at
 * boot, whose live tools could differ run to run).
 *
 * Nothing is trusted unchecked: the gateway is still built and answers the same opening itself;
 * those answers are compared byte for byte with the ones given. A difference (an entry forged or
 * stale through something the key missed) removes the entry, is logged, and a differing list is
 * followed by `notifications/tools/list_changed`, so the client lists again from the real
 * catalog. Calls are never answered from here: every `tools/call` waits for the full catalog
 * and its mode's policy.
 */

/** Entries kept: each holds one first page (at most 1 MiB, see handlers/paging.ts). */
const MAX_ENTRIES = 32;
/** Bumped when an entry's shape or the key's parts change. */
const FORMAT = 'start-answers/2';

/** What an answer depends on besides the client's own params. */
export interface StartInputs {
  lockBytes: Uint8Array;
  /** The rc file's value as read (config/find.ts), undefined for none or an empty file. */
  rc: unknown;
  rcFile: string | undefined;
  /** The usage file's size and time when the rc records usage (its weights feed the modes), else ''. */
  usage: string;
  mode: string | undefined;
  strategy: string | undefined;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

interface Entry {
  init: Record<string, unknown>;
  listParams: string;
  list: Record<string, unknown>;
}

/** The folder of start answers, or undefined when the user cache is off (`LAZYTOOLS_CACHE_DIR=""`). */
function startAnswersFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return userCacheFolder('start-answers', env);
}

/**
 * The start answers of a stdio connection on a lock, or undefined when the user cache is off.
 * Call `open()` before the catalog is built.
 */
export function startAnswers(transport: StdioFrontTransport, inputs: StartInputs, logger: Logger): StartAnswers | undefined {
  const folder = startAnswersFolder(inputs.env);
  const key = folder === undefined ? undefined : startKey(inputs);
  return folder === undefined || key === undefined ? undefined : new StartAnswers(folder, key, transport, logger);
}

/**
 * The sha256 over everything but the client's params (see the module comment); undefined when
 * JSON would not show the whole rc value (util/plain-json: a JS or TS rc's class instance,
 * inherited keys, getters, a cycle) or would pass 16 MiB (YAML aliases, whose JSON repeats their
 * anchor's value at each one): such a start is not answered early. Its key would miss what the
 * schema reads (an edited getter met the entry of the rc before the edit: the client was shown
 * another mode's list, or, the edit invalid, that list and then the config error), or cost time
 * exponential in the file (1.7 KB of nested aliases held serve for good).
 */
export function startKey(inputs: StartInputs): string | undefined {
  const rc = plainJson([inputs.rcFile ?? null, inputs.rc ?? null, inputs.usage]);
  if (rc === undefined) return undefined;
  const hash = createHash('sha256');
  const env = Object.entries(inputs.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const part of [FORMAT, VERSION, buildIdentity(), inputs.cwd, inputs.mode ?? '', inputs.strategy ?? '', rc, JSON.stringify(env)]) hash.update(part).update('\u0000');
  return hash.update(contentDigest(inputs.lockBytes)).digest('hex');
}

/** This build: a rebuilt lazytools (same version, new code) must not meet the old build's answers. */
function buildIdentity(): string {
  try {
    const stat = statSync(fileURLToPath(import.meta.url));
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'unknown';
  }
}

/**
 * One stdio connection's opening exchange: answered early from an entry when there is one
 * (`open`), then checked against the gateway's own answers or recorded as a new entry (through
 * the transport's tap, for as long as the opening lasts).
 */
export class StartAnswers {
  /** Set by serve once the gateway is built: whether this start's answers may be recorded. */
  cacheable = false;
  /** Whether an initialize opens a 2025 session (protocol/era's classifier, set by serve with the gateway). */
  legacy: ((message: JSONRPCMessage) => boolean) | undefined;
  private phase: 'initialize' | 'list' | 'done' = 'initialize';
  private init: { id: RequestId; params: string; message: JSONRPCMessage } | undefined;
  private list: { id: RequestId; params: string; message: JSONRPCMessage } | undefined;
  private entry: Entry | undefined;
  /** Early answers given, by request: the gateway's own must match them. */
  private readonly given = new Map<RequestId, string>();
  /** The gateway's own answers to the opening. */
  private readonly own = new Map<RequestId, JSONRPCMessage>();
  private sending = false;
  private finished = false;
  /** Settles once the early answers are written out. */
  private written: Promise<void> = Promise.resolve();

  constructor(
    private readonly folder: string,
    private readonly key: string,
    private readonly transport: StdioFrontTransport,
    private readonly logger: Logger,
  ) {
    transport.tap = this;
    // The gateway's answers are checked or recorded on the turn after the last one is written: a
    // connection that ends first (the client closed its input at once; the process exits with
    // it) settles now, or the entry is never written (or a stale one never removed).
    addCloseListener(transport, () => {
      if (this.ready()) this.settle();
    });
  }

  /**
   * Starts reading and answers the opening from an entry while it can (call only when `known()`:
   * it waits for the client's first message). Resolves with every
   * message read (answered or not, the gateway sees them all, see deliver) once a message needs
   * the gateway, the first tools/list was answered, or the input ended. Messages read later are
   * added to the same array until the gateway's handler takes over.
   */
  open(): Promise<JSONRPCMessage[]> {
    const held: JSONRPCMessage[] = [];
    return new Promise((resolve) => {
      let waiting = true;
      // An answer larger than the pipe's buffer is written as the client reads it: the catalog
      // build must not hold the rest back, so the opening ends once the output drained.
      const stop = () => {
        if (waiting) void this.written.then(() => resolve(held));
        waiting = false;
      };
      this.transport.onmessage = (message) => {
        held.push(message);
        if (waiting && (!this.answer(message) || this.phase === 'done')) stop();
      };
      addCloseListener(this.transport, stop);
      void this.transport.start();
    });
  }

  /**
   * Follows the opening exchange (the transport's inbound tap). Whether an initialize opens a
   * 2025 session (protocol/era) is asked only when answers are recorded (`legacy`, set once the
   * SDK is loaded): an entry exists only for initialize params recorded as such, and classifying
   * depends on nothing else, so answering from one needs no classifier.
   */
  inbound(message: JSONRPCMessage): void {
    if (this.phase === 'initialize') {
      const initialize = isRequest(message) && message.method === 'initialize';
      this.init = initialize ? { id: message.id, params: JSON.stringify(message.params ?? null), message } : undefined;
      this.phase = initialize ? 'list' : 'done';
    } else if (this.phase === 'list' && !(isNotification(message) && message.method === 'notifications/initialized')) {
      // A tools/list reusing the initialize's id is the gateway's alone: the answers to the two are
      // told apart by id here, and one taken for the other was recorded as an entry, or answered
      // early in its place (then the check ended the connection).
      if (isRequest(message) && message.method === 'tools/list' && message.id !== this.init?.id) this.list = { id: message.id, params: JSON.stringify(message.params ?? null), message };
      this.phase = 'done';
    }
    if (this.ready()) this.settle();
  }

  /** Keeps the gateway's own answers to early-answered requests off the output, and checks them (the outbound tap). */
  outbound(message: JSONRPCMessage): boolean {
    if (this.sending || this.finished || !isResponse(message)) return false;
    const id = message.id as RequestId;
    // The first answer of that id is the opening's: another (a request that reused the id) passes.
    if ((id !== this.init?.id && id !== this.list?.id) || this.own.has(id)) return false;
    this.own.set(id, message);
    // After this answer is written: checking or recording it never delays it.
    if (this.ready()) setImmediate(() => this.settle());
    return this.given.has(id);
  }

  /** The opening is over and the gateway answered each of its requests. */
  private ready(): boolean {
    return this.phase === 'done' && [this.init, this.list].every((request) => request === undefined || this.own.has(request.id));
  }

  /** Answers `message` from the entry when it can (the opening's next step). */
  private answer(message: JSONRPCMessage): boolean {
    if (!isRequest(message)) return isNotification(message) && message.method === 'notifications/initialized' && this.init !== undefined;
    // The very requests the opening followed (inbound), never another with the same id.
    if (message === this.init?.message) {
      this.entry = this.read(this.init.params);
      return this.entry !== undefined && this.send(this.init.id, this.entry.init);
    }
    if (message === this.list?.message && this.entry && this.entry.listParams === this.list.params) return this.send(this.list.id, this.entry.list);
    return false;
  }

  private send(id: RequestId, answer: Record<string, unknown>): boolean {
    const message = { ...answer, id } as JSONRPCMessage;
    this.given.set(id, serialize(message));
    this.sending = true;
    try {
      this.written = this.transport.send(message);
    } finally {
      this.sending = false;
    }
    return true;
  }

  /** Whether any entry has this start's key (else the opening need not wait for the client). */
  known(): boolean {
    try {
      return readdirSync(this.folder).some((name) => name.startsWith(`${this.key}-`));
    } catch {
      return false;
    }
  }

  /** An entry's file: the start's key, then a sha256 of the client's initialize params. */
  private file(initParams: string): string {
    return path.join(this.folder, `${this.key}-${createHash('sha256').update(initParams).digest('hex')}`);
  }

  private read(initParams: string): Entry | undefined {
    try {
      const json = JSON.parse(readFileSync(this.file(initParams), 'utf8')) as unknown;
      if (isObject(json) && answerShape(json.init) && answerShape(json.list) && typeof json.listParams === 'string') return json as unknown as Entry;
    } catch {
      // No entry, or an unreadable one: the full path answers.
    }
    return undefined;
  }

  /** The opening is over: check what was answered early, or record the gateway's answers. */
  private settle(): void {
    if (this.finished) return;
    this.finished = true;
    this.transport.tap = undefined;
    try {
      this.checkOrRecord();
    } finally {
      // The transport keeps this object for its lifetime: drop the answers (a MiB each at 10,000 tools).
      this.given.clear();
      this.own.clear();
      this.entry = undefined;
      this.init = undefined;
      this.list = undefined;
    }
  }

  private checkOrRecord(): void {
    const init = this.init && this.own.get(this.init.id);
    const list = this.list && this.own.get(this.list.id);
    if (!this.init || !init) return;
    let stale = false;
    let initStale = false;
    for (const [id, given] of this.given) {
      const own = this.own.get(id);
      if (own === undefined || serialize(own) === given) continue;
      stale = true;
      if (id === this.init.id) initStale = true;
      this.logger.warn(`start answers: the ${id === this.init.id ? 'initialize' : 'tools/list'} answer given early differed from the gateway's; entry removed`);
      if (id === this.list?.id) void this.transport.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' } as JSONRPCMessage);
    }
    if (stale) removeQuietly(this.file(this.init.params));
    // A client keeps the instructions and capabilities of initialize for the session, and nothing
    // tells it of new ones: the connection ends, so it starts afresh on the real answer.
    if (initStale) {
      this.logger.error('start answers: ending the connection, so the client starts again with the gateway\'s own initialize answer');
      void this.transport.close();
    }
    if (stale) return;
    if (!this.list || !list || this.given.has(this.list.id) || !this.cacheable || !this.legacy?.(this.init.message) || !('result' in init) || !('result' in list)) return;
    const entry: Entry = { init: { ...init }, listParams: this.list.params, list: { ...list } };
    writeCacheFile(this.folder, path.basename(this.file(this.init.params)), JSON.stringify(entry), MAX_ENTRIES);
  }
}

/** A cached answer is a JSON-RPC result object (never an error, never anything else). */
function answerShape(value: unknown): boolean {
  return isObject(value) && value.jsonrpc === '2.0' && isObject(value.result);
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Gone already.
  }
}
