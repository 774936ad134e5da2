import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN } from './helpers.js';

/** A running `lazytools` CLI process, with a way to wait for a line on its stderr. */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderrMatching(pattern: RegExp): Promise<RegExpExecArray>;
  stderr(): string;
}

/** Starts the built CLI (`npm test` builds first); the caller kills it (see `stopAll`). */
export function startCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', LAZYTOOLS_QUIET: '', ...options.env } });
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
