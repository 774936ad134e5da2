import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import type { LockFile } from '../../src/catalog/lock.js';
import { readStamp } from '../../src/catalog/lock-stamp.js';
import { codeDigest, PLACEMENT_MODULES } from '../../src/catalog/placement-code.js';
import { placementVersion } from '../../src/catalog/placement-cache.js';
import { BIN, ROOT, serverEntry, tempTree } from '../harness/index.js';

// The verified-lock stamp through the real CLI: `lazytools lock`, then `lazytools serve` over stdio
// twice, with the stamps in a folder of this test (LAZYTOOLS_CACHE_DIR), outside the project.

/** Starts `lazytools serve` in `dir`, lists the tools of its default mode, and returns them with stderr. */
async function listOnce(dir: string, cache: string): Promise<{ names: string[]; stderr: string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve'], cwd: dir, stderr: 'pipe', env: { ...process.env, LAZYTOOLS_CACHE_DIR: cache } as Record<string, string> });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'lock-stamp', version: '1.0.0' });
  await client.connect(transport);
  try {
    return { names: (await client.listTools()).tools.map((tool) => tool.name), stderr };
  } finally {
    await client.close();
  }
}

describe('verified-lock stamps (real CLI, the memory server locked, stdio)', () => {
  it('a verified lock is stamped outside the project; after an edit the old stamp does not fit: the forged entry is verified and dropped', async () => {
    const dir = tempTree({ 'package.json': '{}' });
    const cache = mkdtempSync(path.join(os.tmpdir(), 'lazytools-stamps-'));
    const rc = {
      servers: { memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } } },
      groups: { reading: { servers: ['memory'], readOnly: true } },
      modes: { audit: { description: 'Read-only audit', groups: ['reading'], readOnly: true } },
      defaultMode: 'audit',
    };
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify(rc));
    const locked = spawnSync(process.execPath, [BIN, 'lock'], { cwd: dir, encoding: 'utf8', env: { ...process.env, LAZYTOOLS_CACHE_DIR: cache } });
    expect(locked.status, locked.stderr).toBe(0);

    const first = await listOnce(dir, cache);
    expect(first.names).toContain('read_graph');
    expect(first.names).not.toContain('create_entities');
    const stamps = readdirSync(path.join(cache, 'verified-locks'));
    expect(stamps).toHaveLength(1);
    expect((JSON.parse(readFileSync(path.join(cache, 'verified-locks', stamps[0]!), 'utf8')) as { groups: string[] }).groups).toHaveLength(1);
    expect((await listOnce(dir, cache)).names).toEqual(first.names);
    // The CLI keys its stamp on the placement code it was built from (placement-code.ts): the
    // key computed here from the sources under test is the name of the stamp the bundle wrote.
    expect(placementVersion()).toContain(codeDigest(PLACEMENT_MODULES.map((name) => path.join(ROOT, 'src', `${name}.ts`))));
    expect(stamps).toEqual([readStamp(path.join(cache, 'verified-locks'), placementVersion(), readFileSync(path.join(dir, 'lazytools.lock.json'))).key]);

    const lockFile = path.join(dir, 'lazytools.lock.json');
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as LockFile;
    const entry = lock.placement.servers.memory?.create_entities;
    if (!entry) throw new Error('no placement for create_entities');
    entry.write = { readOnly: true, kind: 'read', reason: 'readOnlyHint: true' };
    entry.groups = [{ group: 'reading', reason: 'server "memory"' }];
    writeFileSync(lockFile, JSON.stringify(lock, null, 2));

    const edited = await listOnce(dir, cache);
    expect(edited.names).not.toContain('create_entities');
    expect(edited.names).toEqual(first.names);
    expect(edited.stderr).toMatch(/create_entities: cached write status "read" does not match/);
    expect(readdirSync(path.join(cache, 'verified-locks'))).toEqual(stamps);
  });
});
