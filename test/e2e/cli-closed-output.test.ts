import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { BIN, referenceRc, ROOT, tempTree } from '../harness/index.js';

/**
 * A reader that goes away (`lazytools groups | head`, a client that closes the gateway's stderr)
 * costs only the output nobody reads: no stack trace, the command's own exit code, and a stdio
 * gateway keeps answering on stdout.
 */

const BIG_CATALOG = path.join(ROOT, 'test/fixtures/catalogs/real-world.json');

const exitOf = (child: ReturnType<typeof spawn>) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('a closed stdout or stderr', () => {
  it('`groups | head`: stdout closed after the first chunk exits 0 without a stack trace', async () => {
    const child = spawn(process.execPath, [BIN, 'groups', '--catalog', BIG_CATALOG], { cwd: tempTree({ 'package.json': '{}' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = exitOf(child);
    // The output is over a megabyte, far past a pipe's buffer: the CLI is still writing when it closes.
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.stdout.destroy();
    expect(await exited).toBe(0);
    expect(stderr).not.toMatch(/Unhandled 'error' event|EPIPE|\n\s+at /);
  });

  it('serve over stdio keeps answering when its stderr reader is gone', async () => {
    const { dir } = referenceRc();
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    // The upstreams' start lines and lazytools' own logs now go to a closed pipe.
    child.stderr.destroy();
    const exited = exitOf(child);
    const lines = createInterface({ input: child.stdout });
    const answers = new Map<number, { result?: { tools?: unknown[] } }>();
    const waiters = new Map<number, () => void>();
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } };
      if (typeof message.id !== 'number') return;
      answers.set(message.id, message);
      waiters.get(message.id)?.();
    });
    // A gateway that dies instead fails the test at once, with its exit code.
    const died = exited.then((code) => Promise.reject(new Error(`the gateway exited (${code}) before answering`)));
    died.catch(() => {});
    const answer = (id: number) =>
      Promise.race([new Promise<{ result?: { tools?: unknown[] } }>((resolve) => (answers.has(id) ? resolve(answers.get(id)!) : waiters.set(id, () => resolve(answers.get(id)!)))), died]);
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}\n');
    expect((await answer(1)).result).toBeDefined();
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    expect((await answer(2)).result?.tools?.length).toBeGreaterThan(0);
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
