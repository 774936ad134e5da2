import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type Served } from '../../src/front/serve.js';
import { allText, text, BIN, lockEditor, recordingLogger, serverEntry, tempTree, serveHttpGateway } from '../harness/index.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A project with the memory server, a read-only mode `audit` and a token mapped to it, locked. */
function lockedProject(extra: Record<string, unknown> = {}) {
  const dir = tempTree({ 'package.json': '{}' });
  const rc = {
    servers: { memory: { command: process.execPath, args: [serverEntry('memory')], env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') } } },
    groups: { notes: { servers: ['memory'] }, reading: { servers: ['memory'], readOnly: true } },
    modes: { notes: { description: 'Notes', groups: ['notes'] }, audit: { description: 'Read-only audit', groups: ['reading'], readOnly: true } },
    defaultMode: 'notes',
    auth: { tokens: { audit: { sha256: sha256('audit-token'), modes: ['audit'] } } },
    ...extra,
  };
  const file = path.join(dir, '.lazytoolsrc.json');
  writeFileSync(file, JSON.stringify(rc));
  const locked = spawnSync(process.execPath, [BIN, 'lock', '--config', file], { cwd: dir, encoding: 'utf8' });
  expect(locked.status, locked.stderr).toBe(0);
  const edit = lockEditor(path.join(dir, 'lazytools.lock.json'));

  return { dir, file, edit };
}


describe('the lock is data to verify (real gateway over HTTP, the memory server, cold start from the lock)', () => {
  let served: Served | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    await served?.close();
    served = undefined;
  });

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'lock-verify', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served!.http!.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  it('a forged "read" placement of create_entities neither shows nor runs it for a read-only token', async () => {
    const { file, edit } = lockedProject();
    edit((lock) => {
      const entry = lock.placement.servers.memory?.create_entities;
      if (!entry) throw new Error('no placement for create_entities');
      entry.write = { readOnly: true, kind: 'read', reason: 'readOnlyHint: true' };
      entry.groups = [...(entry.groups ?? []), { group: 'reading', reason: 'forged' }];
    });
    const logger = recordingLogger();
    served = await serveHttpGateway(file, { http: { token: 'admin' }, logger });
    const audit = await connect('audit-token');
    const names = (await audit.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('read_graph');
    expect(names).not.toContain('create_entities');
    const direct = await audit.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'x', entityType: 't', observations: [] }] } });
    expect(direct.isError).toBe(true);
    const via = await audit.callTool({ name: 'execute_tool', arguments: { name: 'create_entities', arguments: { entities: [{ name: 'x', entityType: 't', observations: [] }] } } });
    expect(via.isError).toBe(true);
    const graph = await audit.callTool({ name: 'read_graph', arguments: {} });
    expect(graph.isError).toBeFalsy();
    expect(allText(graph)).not.toContain('"x"');
    expect(logger.lines.join('\n')).toMatch(/placement\.servers\.memory\.create_entities: cached write status "read" does not match/);
  });

  it('forged topics and a forged topic-group placement do not move a writer into a mode: the token of that mode neither sees nor runs it', async () => {
    const { file, edit } = lockedProject({
      groups: { notes: { servers: ['memory'] }, reading: { servers: ['memory'], readOnly: true }, wikis: { topics: ['wiki'] } },
      modes: { notes: { description: 'Notes', groups: ['notes'] }, audit: { description: 'Read-only audit', groups: ['reading'], readOnly: true }, wiki: { description: 'Wiki pages', groups: ['wikis'] } },
      auth: { tokens: { wiki: { sha256: sha256('wiki-token'), modes: ['wiki'] } } },
    });
    edit((lock) => {
      const entry = lock.placement.servers.memory?.delete_entities;
      if (!entry) throw new Error('no placement for delete_entities');
      // Write status and definition untouched (the check that existed); only topics and groups forged.
      entry.topics = [{ topic: 'wiki', score: 12, reason: 'forged' }, ...entry.topics.filter((t) => t.topic !== 'wiki')];
      entry.groups = [...(entry.groups ?? []), { group: 'wikis', reason: 'topic wiki 12 (forged)', score: 12 }];
      const other = lock.placement.servers.memory?.delete_relations;
      if (!other) throw new Error('no placement for delete_relations');
      // Topics left alone, a group placement forged.
      other.groups = [...(other.groups ?? []), { group: 'wikis', reason: 'topic wiki 12 (forged)', score: 12 }];
    });
    const logger = recordingLogger();
    served = await serve({ config: file, http: { port: 0, token: 'admin' }, logger });
    const wiki = await connect('wiki-token');
    const names = (await wiki.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('delete_entities');
    expect(names).not.toContain('delete_relations');
    for (const name of ['delete_entities', 'delete_relations']) {
      const direct = await wiki.callTool({ name, arguments: { entityNames: ['x'], relations: [] } });
      expect(direct.isError, text(direct)).toBe(true);
      expect(text(direct)).not.toMatch(/deleted successfully/i);
    }
    expect(logger.lines.join('\n')).toMatch(/placement\.servers\.memory\.delete_entities: cached topics do not match its definition/);
  });

  it('a profile value nested 20,000 levels deep in the lock is left out with a warning; the server still serves', async () => {
    const { dir, file, edit } = lockedProject();
    edit((lock) => Object.assign(lock.servers.memory!, { capabilities: 'DEEP', prompts: [{ name: 'deep', arguments: ['DEEP'] }, { name: 'fine' }] }));
    // Put in as text: JSON.stringify itself overflows on this depth.
    const deep = `${'{"x":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const lockFile = path.join(dir, 'lazytools.lock.json');
    writeFileSync(lockFile, readFileSync(lockFile, 'utf8').replaceAll('"DEEP"', deep));
    const logger = recordingLogger();
    served = await serve({ config: file, http: { port: 0, token: 'admin' }, logger });
    const admin = await connect('admin');
    expect((await admin.callTool({ name: 'read_graph', arguments: {} })).isError).toBeFalsy();
    const warnings = logger.lines.join('\n');
    expect(warnings).toMatch(/servers\.memory\.capabilities: nested more than 64 levels deep; left out/);
    expect(warnings).toMatch(/servers\.memory\.prompts\[0\]: nested more than 64 levels deep; left out/);
  });

  it('pin: a live definition that differs from the lock is reported, and held back with pin: true', async () => {
    const { file, edit } = lockedProject({ pin: true });
    // What the lock recorded (as reviewed) differs from what the server now sends.
    edit((lock) => {
      const tool = lock.servers.memory?.tools.find((t) => t.name === 'read_graph');
      if (!tool) throw new Error('no read_graph in the lock');
      tool.description = 'Read the entire knowledge graph (as reviewed)';
    });
    const logger = recordingLogger();
    served = await serveHttpGateway(file, { http: { token: 'admin' }, logger });
    const admin = await connect('admin');
    const held = await admin.callTool({ name: 'read_graph', arguments: {} });
    expect(held.isError).toBe(true);
    expect(allText(held)).toMatch(/held back/);
    expect(allText(held)).toMatch(/memory/);
    expect(logger.lines.join('\n')).toMatch(/tool "read_graph" of server "memory": its definition differs from the lock; held back/);
    const names = (await admin.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('read_graph');
    expect(names).toContain('create_entities');
    expect((await admin.callTool({ name: 'memory:read_graph', arguments: {} })).isError).toBe(true);
    // The tools that match the lock still run.
    expect((await admin.callTool({ name: 'search_nodes', arguments: { query: 'x' } })).isError).toBeFalsy();
  });

  it('a wrong or malformed era verdict in the lock is probed again, not fatal', async () => {
    for (const protocol of [
      { era: 'modern', discover: { supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'memory', version: '1' } } },
      { era: 'modern', discover: { supportedVersions: 7 } },
    ]) {
      const { file, edit } = lockedProject();
      edit((lock) => Object.assign(lock.servers.memory!, { protocol }));
      served = await serveHttpGateway(file, { http: { token: 'admin' }, logger: recordingLogger() });
      const admin = await connect('admin');
      const graph = await admin.callTool({ name: 'read_graph', arguments: {} });
      expect(graph.isError, `${JSON.stringify(protocol)}: ${allText(graph)}`).toBeFalsy();
      for (const client of clients.splice(0)) await client.close().catch(() => {});
      await served.close();
      served = undefined;
    }
  });

  it('without pin the drift is reported and the tool still runs', async () => {
    const { file, edit } = lockedProject();
    edit((lock) => {
      const tool = lock.servers.memory?.tools.find((t) => t.name === 'read_graph');
      if (tool) tool.description = 'Read the entire knowledge graph (as reviewed)';
    });
    const logger = recordingLogger();
    served = await serveHttpGateway(file, { http: { token: 'admin' }, logger });
    const admin = await connect('admin');
    expect((await admin.callTool({ name: 'read_graph', arguments: {} })).isError).toBeFalsy();
    expect(logger.lines.join('\n')).toMatch(/tool "read_graph" of server "memory": its definition differs from the lock; run `lazytools lock`/);
  });
});
