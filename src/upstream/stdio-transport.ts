import { spawn as spawnPlain, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import spawn from 'cross-spawn';
import type { Transport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { LineReader, serialize } from '../protocol/lines.js';
import { resolveCommand } from './command.js';
import { clipText, tailWhole } from '../util/bounds.js';

/**
 * Unread bytes in a child's stdin past which answers to its own requests (a ping's, a roots/list's)
 * are dropped instead of queued: a server that sends requests and never reads the answers would
 * otherwise grow our memory by each answer, without bound.
 */
export const ANSWER_BACKLOG_BYTES = 1024 * 1024;
/**
 * Unread bytes past which a request of ours fails at once ("not reading its input"): what a
 * stalled child can hold of our memory is this, not every call sent to it since it stalled.
 */
export const REQUEST_BACKLOG_BYTES = 32 * 1024 * 1024;

/**
 * Characters of one stderr line kept (the rest is counted): a child writing without newlines
 * grew our memory without bound, and each chunk re-split everything it had written so far.
 */
export const MAX_STDERR_LINE = 4_000;

/** A child's stderr cut into lines, each at most MAX_STDERR_LINE characters (plus a note of what was left out); blank lines are skipped. */
class StderrLines {
  private pending = '';
  private dropped = 0;

  constructor(private readonly emit: (line: string) => void) {}

  push(chunk: string): void {
    let from = 0;
    for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', from)) {
      this.take(chunk.slice(from, end));
      this.end();
      from = end + 1;
    }
    this.take(chunk.slice(from));
  }

  /** The line so far is whole (a newline, or the child ended). */
  end(): void {
    const line = this.dropped > 0 ? `${this.pending}… (${this.dropped} more characters)` : this.pending;
    this.pending = '';
    this.dropped = 0;
    if (line.trim()) this.emit(line);
  }

  private take(piece: string): void {
    const room = MAX_STDERR_LINE - this.pending.length;
    if (piece.length > room) this.dropped += piece.length - room;
    this.pending += room > 0 ? piece.slice(0, room) : '';
  }
}

export interface StdioUpstreamOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  /** Receives the child's stderr, line by line, each cut at MAX_STDERR_LINE characters (never our stdout). */
  onStderr: (line: string) => void;
  /**
   * Hears each stdout line that is no JSON-RPC message and names no pending call: a server
   * logging to stdout. Without it the first such line of the process is an `onerror`.
   */
  onNoise?: (line: string) => void;
}

/**
 * Client transport to a child process speaking newline-delimited JSON-RPC. Unlike the SDK's, it
 * checks only the JSON-RPC envelope, so relayed payloads are not parsed twice on the hot path.
 * The child gets exactly `env` (the caller merges the safe defaults it wants). The command resolves
 * like a shell would (`resolveCommand`), and cross-spawn runs Windows `.cmd` shims (`npx.cmd`)
 * through cmd.exe with their arguments escaped, which plain spawn refuses.
 */
export class StdioUpstreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Sees each line before parsing; true consumes it (see Upstream's raw relay). */
  onLine?: (line: string) => boolean;
  /** Hears a line that is not a JSON-RPC message: true when it failed a pending call it names. */
  onUnreadable?: (line: string, problem: string) => boolean;
  /** Hears a line past the size limit once it ended (size in bytes, first and last bytes). */
  onOversize?: (size: number, head: string, tail: string, tooMany?: string) => void;
  /** Hears each answer to the child's requests dropped because it does not read its stdin. */
  onAnswerDropped?: () => void;
  /** How the child ended (undefined while it runs): exit code or signal. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /**
   * True when close() was asked for while the child ran: its exit is then the end lazytools gave
   * it (the SDK closes the transport when it refuses an initialize answer), not why a start failed.
   */
  closeAsked = false;
  private child: ChildProcess | undefined;
  private closed = false;
  private readonly stderrTail: string[] = [];
  /** The first stderr line that reads as an error (see ERROR_LINE), kept past the tail. */
  private stderrError: string | undefined;
  private holding: NodeJS.Timeout | undefined;
  private noisy = false;

  constructor(private readonly options: StdioUpstreamOptions) {}

  /** The child's pid once started (for tests and diagnostics). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const command = resolveCommand(this.options.command, { env: this.options.env, cwd: this.options.cwd });
      const child = spawn(command, this.options.args, {
        env: this.options.env,
        cwd: this.options.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        windowsHide: true,
        // Its own process group: closing ends the wrapper's children too (`sh -c`, npx).
        detached: process.platform !== 'win32',
      });
      this.child = child;
      const reader = new LineReader(
        (message) => this.onmessage?.(message),
        (problem, line) => {
          const reason = (problem as { error?: { message?: string } }).error?.message ?? 'unreadable message';
          if (line === undefined) this.onerror?.(new Error(`upstream sent an unreadable message (${reason})`));
          else if (!this.onUnreadable?.(line, reason)) this.noise(line, reason);
        },
        (line) => this.onLine?.(line) ?? false,
        (size, head, tail, tooMany) => this.onOversize?.(size, head, tail, tooMany),
      );
      child.stdout?.on('data', (chunk: Buffer) => reader.push(chunk));
      const stderr = new StderrLines((line) => this.stderrLine(line));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => stderr.push(chunk));
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.once('error', (spawnError) => {
        const error = missingFolder(spawnError, this.options.cwd) ?? spawnError;
        reject(error);
        this.onerror?.(error);
        this.finish();
      });
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => {
        stderr.end();
        this.exit = { code, signal };
        this.finish();
      });
    });
  }

  /**
   * Stops reading the child's stdout for `ms` (a flood: once its pipe is full the child waits, so
   * only this upstream slows); reading resumes by itself.
   */
  holdReading(ms: number): void {
    const stdout = this.child?.stdout;
    if (!stdout || this.holding) return;
    stdout.pause();
    this.holding = setTimeout(() => {
      this.holding = undefined;
      stdout.resume();
    }, ms);
    this.holding.unref();
  }

  /**
   * Writes a message without a promise (the relay's hot path); says why it could not (the child
   * is gone, or has not read what it was sent: see REQUEST_BACKLOG_BYTES), else undefined.
   */
  sendNow(message: JSONRPCMessage): string | undefined {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) return 'upstream process is not running';
    const unread = stdin.writableLength;
    if ('id' in message && !('method' in message)) {
      // An answer to the child's own request: dropped when it is not reading (see ANSWER_BACKLOG_BYTES).
      if (unread > ANSWER_BACKLOG_BYTES) {
        this.onAnswerDropped?.();
        return undefined;
      }
    } else if (unread > REQUEST_BACKLOG_BYTES) return `upstream process is not reading its input (${Math.round(unread / 1024 / 1024)} MiB unread)`;
    stdin.write(serialize(message));
    return undefined;
  }

  /**
   * Resolves once the message is queued, never waiting for the pipe to drain: the bounds are the
   * backlog limits (sendNow), so a child that stops reading holds no promise, listener or request
   * state of ours per message.
   */
  send(message: JSONRPCMessage): Promise<void> {
    const problem = this.sendNow(message);
    return problem === undefined ? Promise.resolve() : Promise.reject(new Error(problem));
  }

  /**
   * Ends the child and its process group (on Windows its tree): stdin is closed first, so a
   * server may exit on its own; then the group gets SIGTERM after 2 s and SIGKILL 2 s later. A
   * grandchild that holds the pipes (a wrapper's child) cannot keep this waiting: after the
   * SIGKILL the pipes are let go within a second.
   */
  async close(): Promise<void> {
    const child = this.child;
    if (this.exit === undefined) this.closeAsked = true;
    if (!child || this.closed) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin?.end();
    if (!(await within(closed, 2_000))) {
      this.signalGroup('SIGTERM');
      if (!(await within(closed, 2_000))) {
        this.signalGroup('SIGKILL');
        if (!(await within(closed, 1_000))) {
          child.stdout?.destroy();
          child.stderr?.destroy();
          this.finish();
        }
      }
    }
    // What the server left behind in its group (a daemonized helper) ends with it.
    if (process.platform !== 'win32') this.signalGroup('SIGTERM');
  }

  /** Signals the child's process group (POSIX) or tree (Windows, forced); gone is fine. */
  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (process.platform === 'win32') spawnPlain('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {});
      else process.kill(-pid, signal);
    } catch {
      // The group has ended.
    }
  }

  /**
   * The child's last stderr lines (at most 10 lines, 1000 characters), for start-up errors, after
   * the first line that read as an error when the tail no longer holds it: a Node crash prints the
   * error first and ten or more stack frames after it, which alone say nothing.
   */
  get stderrSummary(): string {
    const text = this.stderrTail.join('\n');
    const tail = text.length > 1000 ? `…${tailWhole(text, 1000)}` : text;
    const error = this.stderrError;
    if (error === undefined || this.stderrTail.includes(error)) return tail;
    return `${clipText(error, MAX_ERROR_LINE + 1)}\n…\n${tail}`;
  }

  /** A line of logs on stdout: the caller's to report (once), else one error per process. */
  private noise(line: string, reason: string): void {
    if (this.options.onNoise) return this.options.onNoise(line);
    if (this.noisy) return;
    this.noisy = true;
    this.onerror?.(new Error(`upstream sent an unreadable message (${reason}); further ones are skipped silently`));
  }

  private stderrLine(line: string): void {
    if (this.stderrError === undefined && ERROR_LINE.test(line)) this.stderrError = line;
    this.stderrTail.push(line);
    if (this.stderrTail.length > 10) this.stderrTail.shift();
    this.options.onStderr(line);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/**
 * A stderr line that states an error: `Error: ...`, `TypeError [ERR_X]: ...`, a Python
 * `ValueError: ...` or `Exception: ...`, `error`/`fatal`/`panic` prefixes (colon optional), a JSON
 * log line at level error or fatal.
 */
const ERROR_LINE = /^\s*(?:[A-Za-z_.]*(?:Error|Exception)\b(?: \[[A-Z_]+\])?:|(?:error|fatal|panic)\b:?\s|\{.*"level"\s*:\s*"(?:error|fatal)")/i;

/** Characters of that line kept (with the 1,000 of the tail, what a start-up error quotes). */
const MAX_ERROR_LINE = 300;

/** True when `promise` settled within `ms`. */
async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([promise.then(() => true as const), late]);
  clearTimeout(timer);
  return result;
}

/**
 * The error to report when a child could not start because its working folder is missing: Node
 * says `spawn /usr/bin/node ENOENT` for a missing `cwd` as for a missing command, which sends the
 * user to look for the wrong thing. Undefined for any other error.
 */
function missingFolder(error: Error & { code?: unknown }, cwd: string | undefined): Error | undefined {
  if (error.code !== 'ENOENT' || cwd === undefined) return undefined;
  let folder = false;
  try {
    folder = statSync(cwd, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    // A file on the way (ENOTDIR) or no access: not a folder the child can run in.
  }
  if (folder) return undefined;
  return new Error(`cwd ${JSON.stringify(cwd)} is not a folder that exists: set "cwd" to the server's folder, or leave it out to run in the rc file's folder`);
}
