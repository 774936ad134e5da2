import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readUsage, USAGE_FILE_MAX, USAGE_READ_MAX, UsageRecorder } from '../../src/usage/record.js';
import { tempTree } from '../harness/index.js';

/**
 * Adversarial pass (hadv3): `.lazytools/usage.jsonl` is read at every start with rc `usage: true`
 * and appended on every call, so whatever sits at that path must neither hang nor slow a start,
 * nor turn the appends against another file. On the old main a FIFO there hung the start for
 * good, the whole file was read however large, and a symlink there had records appended to
 * whatever file it named.
 */

const line = (i: number) => JSON.stringify({ t: '2026-11-20T00:00:00.000Z', mode: 'development', tool: `memory:tool_${i}`, via: 'direct' });

describe('the usage file, poisoned', () => {
  it('a FIFO reads as no records instead of waiting for a writer', async () => {
    const dir = tempTree({});
    const fifo = path.join(dir, 'usage.jsonl');
    execFileSync('mkfifo', [fifo]);
    await expect(readUsage(fifo)).resolves.toEqual([]);
    await expect(readUsage(dir)).resolves.toEqual([]);
    // Appending neither waits for a reader nor fills the pipe.
    const recorder = new UsageRecorder(fifo);
    recorder.record('development', 'memory:read_graph', 'direct');
    await recorder.flush();
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a large file is read from its newest USAGE_READ_MAX bytes only, skipping the torn first line and bad lines', async () => {
    const dir = tempTree({});
    const file = path.join(dir, 'usage.jsonl');
    const count = Math.ceil((USAGE_READ_MAX * 1.5) / (line(0).length + 1));
    const lines = Array.from({ length: count }, (_, i) => line(i));
    lines.splice(count - 2, 0, '{not json', 'null', '[1,2]', `{"mode":${'9'.repeat(400)}}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    expect(statSync(file).size).toBeGreaterThan(USAGE_READ_MAX);
    const records = await readUsage(file);
    expect(records.length).toBeLessThan(count);
    expect(records.length).toBeGreaterThan((USAGE_READ_MAX / (line(0).length + 1)) * 0.9);
    // The newest records are the ones kept, each whole.
    expect(records.at(-1)?.tool).toBe(`memory:tool_${count - 1}`);
    for (const record of records) expect(record.tool).toMatch(/^memory:tool_\d+$/);
  });

  it('records are never appended through a symlink', async () => {
    const dir = tempTree({ 'victim.txt': 'keep me\n' });
    mkdirSync(path.join(dir, '.lazytools'));
    const file = path.join(dir, '.lazytools', 'usage.jsonl');
    symlinkSync(path.join(dir, 'victim.txt'), file);
    const recorder = new UsageRecorder(file);
    recorder.record('development', 'memory:read_graph', 'direct');
    await recorder.flush();
    expect(readFileSync(path.join(dir, 'victim.txt'), 'utf8')).toBe('keep me\n');
    // A plain file is appended as before.
    const plain = new UsageRecorder(path.join(dir, 'plain', 'usage.jsonl'));
    plain.record('development', 'memory:read_graph', 'search');
    await plain.flush();
    expect(await readUsage(path.join(dir, 'plain', 'usage.jsonl'))).toMatchObject([{ mode: 'development', tool: 'memory:read_graph', via: 'search' }]);
  });

  it('a .lazytools that is itself a symlink is neither written through nor read', async () => {
    const dir = tempTree({ 'elsewhere/usage.jsonl': `${line(1)}\n` });
    symlinkSync(path.join(dir, 'elsewhere'), path.join(dir, '.lazytools'));
    const file = path.join(dir, '.lazytools', 'usage.jsonl');
    const recorder = new UsageRecorder(file);
    recorder.record('development', 'memory:read_graph', 'direct');
    await recorder.flush();
    expect(readFileSync(path.join(dir, 'elsewhere', 'usage.jsonl'), 'utf8')).toBe(`${line(1)}\n`);
    expect(readdirSync(path.join(dir, 'elsewhere'))).toEqual(['usage.jsonl']);
    await expect(readUsage(file)).resolves.toEqual([]);
  });

  it('an append past USAGE_FILE_MAX trims the file to its newest whole records, so it never grows without bound', async () => {
    const dir = tempTree({});
    const file = path.join(dir, 'usage.jsonl');
    const count = Math.ceil((USAGE_FILE_MAX + 1024) / (line(0).length + 1));
    writeFileSync(file, `${Array.from({ length: count }, (_, i) => line(i)).join('\n')}\n`);
    const recorder = new UsageRecorder(file);
    recorder.record('debugging', 'memory:newest', 'direct');
    await recorder.flush();
    expect(statSync(file).size).toBeLessThanOrEqual(USAGE_READ_MAX);
    const text = readFileSync(file, 'utf8');
    // Whole lines only, the newest kept, and no temporary file left beside it.
    for (const kept of text.trimEnd().split('\n')) expect(() => JSON.parse(kept) as unknown).not.toThrow();
    expect((await readUsage(file)).at(-1)).toMatchObject({ mode: 'debugging', tool: 'memory:newest' });
    expect(readdirSync(dir)).toEqual(['usage.jsonl']);
  });
});
