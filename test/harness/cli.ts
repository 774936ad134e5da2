import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN } from './paths.js';

/** The environment the CLI runs with in tests: no colour, logs on (`env` adds or overrides). */
export function cliEnv(env: NodeJS.ProcessEnv = {}): Record<string, string> {
  return { ...process.env, NO_COLOR: '1', LAZYTOOLS_QUIET: '', ...env } as Record<string, string>;
}

/** What one CLI run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI to its end as a user would (stdin closed): `lazytools ...args` in `cwd`. */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout?: number } = {}): CliRun {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd, encoding: 'utf8', input: '', env: cliEnv(options.env), timeout: options.timeout });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Parameters for an SDK stdio client transport that starts `lazytools ...args` (the v1 and v2
 * `StdioClientTransport` take the same shape). The SDK passes only a few variables to the child
 * unless given `env`, so the whole environment goes.
 */
export function cliStdio(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; stderr?: 'pipe' | 'ignore' | 'inherit' } = {}) {
  return { command: process.execPath, args: [BIN, ...args], cwd: options.cwd, env: { ...process.env, ...options.env } as Record<string, string>, stderr: options.stderr ?? 'ignore' };
}

/** A running `lazytools` CLI process, with a way to wait for a line on its stderr. */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderrMatching(pattern: RegExp): Promise<RegExpExecArray>;
  stderr(): string;
}

/** Starts the built CLI (`npm test` builds first); the caller kills it (see `stopAll`). */
export function startCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: cliEnv(options.env) });
  running.add(child);
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const stderrMatching = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const match = pattern.exec(stderr);
      if (match) return match;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited ${child.exitCode ?? child.signalCode} before ${pattern}: ${stderr}`);
      await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), exited]);
    }
  };
  return { child, exited, stderrMatching, stderr: () => stderr };
}

const running = new Set<ChildProcessWithoutNullStreams>();

/**
 * Stops every CLI process `startCli` started that still runs (afterEach/afterAll): SIGTERM first,
 * so the gateway ends its upstreams' process groups (a SIGKILLed gateway leaves behind an upstream
 * that ignores the end of its stdin, as test/fixtures/servers/silent.mjs does), then SIGKILL for
 * one that has not exited within the grace period plus a margin (an upper bound only).
 */
export async function stopAll(): Promise<void> {
  const live = [...running].filter((child) => child.exitCode === null && child.signalCode === null);
  running.clear();
  await Promise.all(
    live.map(async (child) => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 15_000)));
      if ((await Promise.race([exited, late])) === 'late') child.kill('SIGKILL');
      clearTimeout(timer);
    }),
  );
}

/** `lazytools serve --http 127.0.0.1:0 …` and the URL it prints once listening. */
export async function serveHttpCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliProcess & { url: string }> {
  const cli = startCli(['serve', '--http', '127.0.0.1:0', ...args], options);
  const match = await cli.stderrMatching(/serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
  return { ...cli, url: match[1] as string };
}

/** The answers a stdio gateway writes, one JSON line each, by id: `answer(id)` resolves with the one of that id, written before or after. */
export function stdoutAnswers(cli: CliProcess) {
  let buffer = '';
  const seen = new Map<unknown, Record<string, unknown>>();
  const waiting = new Map<unknown, (answer: Record<string, unknown>) => void>();
  cli.child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, at)) as Record<string, unknown>;
      buffer = buffer.slice(at + 1);
      seen.set(message.id, message);
      waiting.get(message.id)?.(message);
    }
  });
  return (id: number) => new Promise<Record<string, unknown>>((resolve) => (seen.has(id) ? resolve(seen.get(id)!) : waiting.set(id, resolve)));
}
