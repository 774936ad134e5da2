import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempTree, cliStdio } from '../harness/index.js';

/** `serve --mode M --watch` fails closed when M leaves the rc. */

const RAW_SERVER = FIXTURES.rawServer;

describe('a fixed mode that disappears on reload', () => {
  it('ends the stdio gateway non-zero, naming the mode; it never falls back to defaultMode', async () => {
    const dir = tempTree({ 'package.json': '{}' });
    const file = path.join(dir, '.lazytoolsrc.json');
    const rc = (mode: string) => ({
      servers: { raw: { command: process.execPath, args: [RAW_SERVER] } },
      groups: { oks: { tools: ['*ok*'] }, everything: { tools: ['*'] } },
      modes: { [mode]: { groups: ['oks'], readOnly: true }, writer: { groups: ['everything'] } },
      defaultMode: 'writer',
    });
    writeFileSync(file, JSON.stringify(rc('notes_only')));
    const transport = new StdioClientTransport(cliStdio(['serve', '--mode', 'notes_only', '--watch', '--ignore-lock'], { cwd: dir, stderr: 'pipe' }));
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'watch', version: '1' });
    await client.connect(transport);
    const exited = new Promise<number | null>((resolve) => {
      const child = (transport as unknown as { _process?: ChildProcess })._process;
      child?.once('exit', (code) => resolve(code));
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('focus_mode');
    writeFileSync(file, JSON.stringify(rc('notes_read')));
    expect(await exited).toBe(1);
    expect(stderr).toContain('mode "notes_only" is no longer in the config');
  }, 30_000);
});
