import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { Served } from '../../src/app/serve.js';
import { allText, FIXTURES, lockEditor, recordingLogger, runCli, serveHttpGateway, tempTree } from '../harness/index.js';

/**
 * rc `pin: true` holds back what the lock has not recorded as reviewed. On the old main a server
 * missing from the lock (added to the rc later, or not reached by a partial `lazytools lock`) was
 * served unpinned without a word, and changed instructions, prompts and resources reached new
 * sessions while `lock --check` said the lock matched.
 */

const KITCHEN = { command: process.execPath, args: [FIXTURES.kitchenSink, '--legacy-only'] };

/** A project with the kitchen-sink server, locked, then `later` servers added to the rc. */
function pinnedProject(later: Record<string, unknown> = {}) {
  const dir = tempTree({ 'package.json': '{}' });
  const file = path.join(dir, '.lazytoolsrc.json');
  const rc = (servers: Record<string, unknown>) => writeFileSync(file, JSON.stringify({ servers, defaultMode: 'all', pin: true }));
  rc({ kitchen: KITCHEN });
  const locked = runCli(['lock', '--config', file], { cwd: dir });
  expect(locked.code, locked.stderr).toBe(0);
  rc({ kitchen: KITCHEN, ...later });
  const edit = lockEditor(path.join(dir, 'lazytools.lock.json'));

  return { dir, file, edit };
}


describe('pin: true', () => {
  let served: Served | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    await served?.close();
    served = undefined;
  });
  async function connect(): Promise<Client> {
    const client = new Client({ name: 'pin-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served!.http!.url)));
    clients.push(client);
    return client;
  }

  it('holds back every tool of a server the lock does not hold, saying so; the locked server still serves', async () => {
    const { file } = pinnedProject({ added: { ...KITCHEN, env: { KITCHEN_NAME: 'added' } } });
    const logger = recordingLogger();
    served = await serveHttpGateway(file, { logger });
    const client = await connect();
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain('added_test_simple_text');
    expect(names.some((name) => name.startsWith('added'))).toBe(false);
    const held = await client.callTool({ name: 'added:test_simple_text', arguments: {} });
    expect(held.isError).toBe(true);
    expect(allText(held)).toMatch(/server "added" is not in the lock: its tools are held back/);
    expect((await client.callTool({ name: 'kitchen:test_simple_text', arguments: {} })).isError).toBeFalsy();
    expect(logger.lines.join('\n')).toMatch(/server "added" is not in the lock: its tools are held back \(rc pin: true\)/);
    // Nor its prompts or resources.
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name).every((name) => !name.startsWith('added'))).toBe(true);
  });

  it('holds back changed instructions, prompts and resources from new sessions; lock --check reports each change', async () => {
    const { dir, file, edit } = pinnedProject();
    edit((lock) => {
      const kitchen = lock.servers.kitchen as unknown as { instructions: string; prompts: Array<{ name: string; description: string }>; resources: Array<{ uri: string; name: string }> };
      kitchen.instructions = 'Reviewed instructions.';
      kitchen.prompts = kitchen.prompts.map((prompt) => (prompt.name === 'test_simple_prompt' ? { ...prompt, description: 'As reviewed' } : prompt));
      kitchen.resources = kitchen.resources.slice(1);
      // A name with a C1 control (CSI): printed as it came, it would recolour the user's terminal.
      kitchen.prompts.push({ name: 'gone\u009b31m', description: 'Locked, no longer served' });
    });
    const check = runCli(['lock', '--check', '--config', file], { cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('changed kitchen instructions');
    expect(check.stdout).toContain('changed kitchen prompt "test_simple_prompt"');
    expect(check.stdout).toMatch(/added {3}kitchen resource "[^"]+"/);
    expect(check.stdout).toContain('removed kitchen prompt "gone\\u009b31m"');
    expect(check.stdout).not.toContain('\u009b');
    const logger = recordingLogger();
    served = await serveHttpGateway(file, { logger });
    const client = await connect();
    // Started for the call: the live server's profile is now known.
    expect((await client.callTool({ name: 'test_simple_text', arguments: {} })).isError).toBeFalsy();
    const fresh = await connect();
    const instructions = fresh.getInstructions() ?? '';
    // Held back like a changed tool: neither the live text nor the one the lock holds (it no longer is the server's).
    expect(instructions).not.toContain('exercises every MCP primitive');
    expect(instructions).not.toContain('## kitchen');
    const prompts = (await fresh.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(prompts).not.toContain('test_simple_prompt');
    expect(prompts).toContain('test_prompt_with_arguments');
    expect(logger.lines.join('\n')).toMatch(/server "kitchen": instructions \(changed\), prompt "test_simple_prompt" \(changed\), resource "[^"]+" \(new\) differ from the lock; held back/);
  });
});
