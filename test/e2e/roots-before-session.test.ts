import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttpCli, serverEntry, stopAll, tempTree } from '../harness/index.js';

/**
 * The filesystem server asks for roots as soon as it is initialized, before any client
 * session exists. It gets an empty list (it keeps the directories of its arguments), not an error
 * ("Failed to request initial roots from client ... has no client session to go to").
 */
afterEach(() => stopAll());

describe('roots before any session', () => {
  it('@modelcontextprotocol/server-filesystem started at boot gets an empty roots list and serves its argument directory', async () => {
    const dir = tempTree({ 'package.json': '{}', 'data/hello.txt': 'hello\n' });
    const data = path.join(dir, 'data');
    writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify({ servers: { filesystem: { command: process.execPath, args: [serverEntry('filesystem'), data] } }, defaultMode: 'all' }));
    const gateway = await serveHttpCli([], { cwd: dir });
    const said = await gateway.stderrMatching(/\[filesystem\] (No valid root directories provided by client|Failed to request initial roots from client.*)/);
    expect(said[1]).toBe('No valid root directories provided by client');
    const client = new Client({ name: 'no-roots', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    try {
      const listed = (await client.callTool({ name: 'list_allowed_directories', arguments: {} })) as { content: Array<{ text: string }> };
      expect(listed.content[0]?.text).toContain(data);
    } finally {
      await client.close();
    }
    expect(gateway.stderr()).not.toContain('Failed to request initial roots');
  });
});
