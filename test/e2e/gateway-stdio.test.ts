import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, deferred, referenceRc, text, cliStdio } from '../harness/index.js';

describe('lazytools serve over stdio with real reference servers', () => {
  let client: Client;
  let notifications = 0;
  let stderr = '';
  const logged = deferred();

  beforeAll(async () => {
    const { dir } = referenceRc();
    const transport = new StdioClientTransport(cliStdio(['serve'], { cwd: dir, stderr: 'pipe' }));
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('[lazytools]')) logged.resolve();
    });
    client = new Client({ name: 'e2e', version: '1.0.0' });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notifications++;
    });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists the default mode plus focus_mode, search_tools and execute_tool', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names.slice(0, 3)).toEqual(['focus_mode', 'search_tools', 'execute_tool']);
    expect(names).toContain('read_text_file');
    expect(names).toContain('create_entities');
    expect(names).not.toContain('echo');
    const focus = tools.find((t) => t.name === 'focus_mode');
    expect(focus?.description).toContain('- security_review:');
  });

  it('switches mode with focus_mode, sends one list_changed and names what changed', async () => {
    notifications = 0;
    const result = (await client.callTool({ name: 'focus_mode', arguments: { mode: 'debugging' } })) as CallToolResult;
    // Barrier: stdout is one ordered stream, so a ping's answer comes after any earlier notification.
    await client.ping();
    expect(notifications).toBe(1);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ mode: 'debugging', groups: ['ci', 'code', 'history', 'files', 'local_code', 'diagnostics', 'reasoning', 'observability', 'browser', 'containers', 'docs', 'web', 'code_tools', 'shell'] });
    const report = result.structuredContent as { added: string[]; removed: string[]; addedCount: number; removedCount: number; reduction: number; tokens: number; totalTokens: number };
    // A handful of names at most; the counts say how many came and went (the list itself is tools/list).
    expect(report.addedCount).toBeGreaterThanOrEqual(report.added.length);
    expect(report.added.length).toBeLessThanOrEqual(5);
    expect(report.removedCount).toBeGreaterThan(0);
    expect(text(result)).toMatch(new RegExp(`^Changed: \\+${report.addedCount}, -${report.removedCount}`, 'm'));
    expect(text(result)).toMatch(/Visible: \d+ of \d+ tools/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(tools.map((t) => t.name)).not.toContain('create_entities');
  });

  it('sends no list_changed when nothing changed', async () => {
    notifications = 0;
    await client.callTool({ name: 'focus_mode', arguments: { mode: 'debugging' } });
    await client.callTool({ name: 'focus_mode', arguments: { status: true } });
    await client.ping();
    expect(notifications).toBe(0);
  });

  it('relays a real call through the gateway', async () => {
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'through lazytools' } });
    expect(text(echo)).toBe('Echo: through lazytools');
    const file = await client.callTool({ name: 'list_allowed_directories', arguments: {} });
    expect(text(file)).toContain('data');
  });

  it('forwards progress notifications before the result, with the client\'s token', async () => {
    // Read the wire itself: the SDK client drops a progress notification that shares a read
    // with its response, which would make this test flaky under load.
    const { dir } = referenceRc({ defaultMode: 'debugging' });
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd: dir, stdio: ['pipe', 'pipe', 'ignore'] });
    const lines: Array<{ id?: unknown; method?: string; params?: { progress?: number; progressToken?: unknown } }> = [];
    const answered = deferred();
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const part of parts) {
        if (!part) continue;
        const line = JSON.parse(part) as (typeof lines)[number];
        lines.push(line);
        if (line.id === 2) answered.resolve();
      }
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 }, _meta: { progressToken: 'tok-7' } } })}\n`);
    await answered.promise;
    child.stdin.end();
    await exited;
    const answer = lines.findIndex((l) => l.id === 2);
    const progress = lines.filter((l, i) => l.method === 'notifications/progress' && i < answer);
    expect(progress.map((l) => l.params?.progress)).toEqual([1, 2, 3]);
    expect(progress.every((l) => l.params?.progressToken === 'tok-7')).toBe(true);
  });

  it('answers unknown modes and groups with isError naming the valid ones', async () => {
    const mode = (await client.callTool({ name: 'focus_mode', arguments: { mode: 'securty_review' } })) as CallToolResult;
    expect(mode.isError).toBe(true);
    expect(text(mode)).toContain('Unknown mode "securty_review". Did you mean "security_review"');
    expect(text(mode)).toContain('Valid modes: all, analytics, browser_testing, code_review');
    const group = (await client.callTool({ name: 'focus_mode', arguments: { enable_group: 'nope' } })) as CallToolResult;
    expect(group.isError).toBe(true);
    expect(text(group)).toContain('Unknown group "nope"');
  });

  it('answers an unknown tool with isError and the closest names', async () => {
    const result = (await client.callTool({ name: 'ecoh', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Unknown tool "ecoh". Did you mean "echo"');
  });

  it('keeps logs off stdout', async () => {
    // Logs travel on stderr, a pipe of their own: wait for the line rather than for time.
    await logged.promise;
    expect(stderr).toContain('[lazytools]');
  });
});
