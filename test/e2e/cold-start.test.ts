import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, referenceRc, ROOT, tempTree } from '../harness/index.js';
import { generateCatalog } from '../../bench/generate.mjs';
import { parseCatalog } from '../../src/catalog/file.js';
import { makeLock } from '../../src/catalog/lock.js';
import { parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';

// A gateway started on a lock answers its first tools/list without loading the tokenizer (about
// 250 ms of start-up): the lock records the token counts fitting the default mode needs. Node's
// own module debug log (NODE_DEBUG=module, on stderr) names every CommonJS module loaded, which is
// how gpt-tokenizer's tables load. Pipe writes are synchronous on Linux, so a load before the answer
// is in the stderr pipe before the answer is on stdout; stderr is read to its end after the answer.

/** Spawns `lazytools serve` in `dir`, lists tools once, ends it; returns the tool count and its stderr. */
async function firstList(dir: string): Promise<{ tools: number; stderr: string }> {
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_DEBUG: 'module' } });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const stderrEnded = new Promise((resolve) => child.stderr.on('end', resolve));
  const answers = new Map<number, (message: { result?: { tools?: unknown[] } }) => void>();
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, end)) as { id?: number; result?: { tools?: unknown[] } };
      buffer = buffer.slice(end + 1);
      if (typeof message.id === 'number') answers.get(message.id)?.(message);
    }
  });
  const request = (id: number, method: string, params: unknown) =>
    new Promise<{ result?: { tools?: unknown[] } }>((resolve) => {
      answers.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cold-start-test', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const list = await request(2, 'tools/list', {});
  child.kill('SIGKILL');
  await stderrEnded;
  return { tools: list.result?.tools?.length ?? 0, stderr };
}

describe('cold start on a lock', () => {
  it('answers the first tools/list of a budget-fitted mode without loading the tokenizer', async () => {
    const { dir } = referenceRc({ defaultMode: 'debugging' });
    expect(spawnSync(process.execPath, [BIN, 'lock'], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
    const fromLock = await firstList(dir);
    expect(fromLock.tools).toBeGreaterThan(3);
    expect(fromLock.stderr).toContain('MODULE'); // the debug log is on
    expect(fromLock.stderr).not.toContain('gpt-tokenizer');

    // The same lock without its counts: fitting the mode counts, which loads the tokenizer.
    const file = path.join(dir, 'lazytools.lock.json');
    const lock = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete lock.tokens;
    writeFileSync(file, JSON.stringify(lock));
    const counted = await firstList(dir);
    expect(counted.tools).toBe(fromLock.tools);
    expect(counted.stderr).toContain('gpt-tokenizer');
  });
});

describe('what a start loads before it answers', () => {
  it('leaves the rc schema (zod) and the SDK out of the code `serve` imports before it answers from start answers', () => {
    // The bundle marks each module's source with a "// <path>" line; a chunk's static imports load with it.
    const chunks = path.join(path.dirname(BIN), 'chunks');
    const serve = /import\("\.\/chunks\/(serve-[^"]+\.mjs)"\)/.exec(readFileSync(BIN, 'utf8'))?.[1];
    expect(serve).toBeDefined();
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const match of readFileSync(path.join(chunks, file), 'utf8').matchAll(/^import (?:[^;]*? from )?"\.\/([^"]+)"/gms)) walk(match[1] as string);
    };
    walk(serve as string);
    const sources = [...seen].flatMap((file) => [...readFileSync(path.join(chunks, file), 'utf8').matchAll(/^\/\/ (\S+)$/gm)].map((match) => match[1] as string));
    expect(sources).toContain('dist/transports/start-answers.js');
    expect(sources.filter((source) => /node_modules\/(zod|@modelcontextprotocol)\/|dist\/config\/schema\.js/.test(source))).toEqual([]);
  });
});

describe('memory after a cold start', () => {
  it('keeps the young generation small after the start-up burst of a 2,000-tool lock', async () => {
    // Loading the lock allocates a burst; with V8's default growth the young generation's two
    // semi-spaces grow to 16 MB each and stay committed (32 MB of a quiet gateway's RSS).
    const rc = { servers: {}, defaultMode: 'all' };
    const lock = makeLock(parseCatalog(generateCatalog(2_000)), resolveConfig(parseConfig(rc)));
    const dir = tempTree({ '.lazytoolsrc.json': JSON.stringify(rc), 'lazytools.lock.json': JSON.stringify(lock) });
    const hook = path.join(ROOT, 'test/fixtures/heap-report.mjs');
    const child = spawn(process.execPath, ['--import', hook, BIN, 'serve'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    const report = new Promise<Record<string, number>>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const line = /^HEAP (.*)$/m.exec(stderr);
        if (line) resolve(JSON.parse(line[1] as string) as Record<string, number>);
      });
    });
    let stdout = '';
    const listed = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.split('\n').slice(0, -1).some((line) => line.startsWith('{') && (JSON.parse(line) as { id?: unknown }).id === 2)) resolve();
      }),
    );
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'heap-test', version: '1' } } })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} })}\n`);
    await listed;
    child.kill('SIGUSR2');
    const spaces = await report;
    child.kill('SIGKILL');
    expect(spaces.new_space).toBeGreaterThan(0);
    expect(spaces.new_space).toBeLessThan(20 * 1024 * 1024);
  });
});
