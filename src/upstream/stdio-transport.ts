import { spawn as spawnPlain, type ChildProcess } from 'node:child_process';
import spawn from 'cross-spawn';
import type { Transport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { LineReader, serialize } from '../protocol/lines.js';
import { resolveCommand } from './command.js';

export interface StdioUpstreamOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  /** Receives the child's stderr, line by line (never our stdout). */
  onStderr: (line: string) => void;
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
  /** Hears a line that is not a JSON-RPC message (so a pending call can fail at once). */
  onUnreadable?: (line: string, problem: string) => void;
  /** Hears a line past the size limit once it ended (size in bytes, first and last bytes). */
  onOversize?: (size: number, head: string, tail: string) => void;
  /** How the child ended (undefined while it runs): exit code or signal. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private child: ChildProcess | undefined;
  private closed = false;
  private readonly stderrTail: string[] = [];
  private holding: NodeJS.Timeout | undefined;

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
          if (line !== undefined) this.onUnreadable?.(line, reason);
          this.onerror?.(new Error(`upstream sent an unreadable message (${reason})`));
        },
        (line) => this.onLine?.(line) ?? false,
        (size, head, tail) => this.onOversize?.(size, head, tail),
      );
      child.stdout?.on('data', (chunk: Buffer) => reader.push(chunk));
      let pending = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) this.stderrLine(line);
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
        this.finish();
      });
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => {
        if (pending.trim()) this.stderrLine(pending);
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

  /** Writes a message without a promise (the relay's hot path); false when the child is gone. */
  sendNow(message: JSONRPCMessage): boolean {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) return false;
    stdin.write(serialize(message));
    return true;
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || !stdin.writable) return Promise.reject(new Error('upstream process is not running'));
    if (stdin.write(serialize(message))) return Promise.resolve();
    return new Promise((resolve) => stdin.once('drain', resolve));
  }

  /**
   * Ends the child and its process group (on Windows its tree): stdin is closed first, so a
   * server may exit on its own; then the group gets SIGTERM after 2 s and SIGKILL 2 s later. A
   * grandchild that holds the pipes (a wrapper's child) cannot keep this waiting: after the
   * SIGKILL the pipes are let go within a second.
   */
  async close(): Promise<void> {
    const child = this.child;
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

  /** The child's last stderr lines (at most 10 lines, 1000 characters), for start-up errors. */
  get stderrSummary(): string {
    const text = this.stderrTail.join('\n');
    return text.length > 1000 ? `…${text.slice(-1000)}` : text;
  }

  private stderrLine(line: string): void {
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

/** True when `promise` settled within `ms`. */
async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const result = await Promise.race([promise.then(() => true as const), late]);
  clearTimeout(timer);
  return result;
}
