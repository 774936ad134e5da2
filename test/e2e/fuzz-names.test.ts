import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { Gateway } from '../../src/app/gateway.js';
import { curate } from '../../src/app/curate.js';
import { serveHttp } from '../../src/transports/http.js';
import { ConfigError } from '../../src/util/errors.js';
import { BIN, tempTree, inMemoryClient } from '../harness/index.js';

/**
 * Mode, group, server and tool names drawn from Object.prototype's keys and random unicode,
 * through the rc, the tools, the HTTP paths and the CLI, crash nothing.
 */

const PROTO_NAMES = [...Object.getOwnPropertyNames(Object.prototype), 'prototype', '__defineGetter__', 'then', 'length', 'name'];

/** A seeded generator, so a failure names a reproducible input. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function unicodeNames(count: number, seed = 10): string[] {
  const next = random(seed);
  const ranges: Array<[number, number]> = [[0x21, 0x7e], [0xa0, 0x24f], [0x370, 0x3ff], [0x900, 0x97f], [0x4e00, 0x4fff], [0x1f300, 0x1f64f], [0xfe00, 0xfe0f], [0x200b, 0x200f]];
  return Array.from({ length: count }, () => {
    const length = 1 + Math.floor(next() * 12);
    let out = '';
    for (let i = 0; i < length; i++) {
      const [low, high] = ranges[Math.floor(next() * ranges.length)] as [number, number];
      out += String.fromCodePoint(low + Math.floor(next() * (high - low + 1)));
    }
    return out;
  });
}

const NAMES = [...PROTO_NAMES, ...unicodeNames(60)];

describe('names from Object.prototype and random unicode crash nothing', () => {
  it('in the rc: every placement is accepted or a ConfigError', async () => {
    for (const name of NAMES) {
      const placements: unknown[] = [
        { defaultMode: name },
        { modes: { [name]: { groups: ['all'] } } },
        { modes: { [name]: { groups: ['all'] } }, defaultMode: name },
        { modes: { x: { extends: name } } },
        { modes: { x: { groups: [name] } } },
        { groups: { [name]: { tools: ['*'] } }, modes: { x: { groups: [name] } } },
        { servers: { [name]: { command: 'x' } } },
        { tools: { [name]: { summary: 's' } } },
        { alwaysVisible: [name] },
      ];
      for (const rc of placements) {
        try {
          const config = resolveConfig(parseConfig(JSON.parse(JSON.stringify(rc))));
          // Whatever resolves must open a session, in its default mode.
          const gateway = new Gateway({ config, upstreams: [] });
          expect(gateway.createSession().mode).toBe(config.defaultMode);
          await gateway.close();
        } catch (error) {
          expect(error, `${JSON.stringify(rc)}: ${(error as Error).message}`).toBeInstanceOf(ConfigError);
        }
      }
    }
  });

  it('in tool arguments: every answer is a result, and the session keeps serving', async () => {
    const app = new McpServer({ name: 'app', version: '1' });
    app.registerTool('ping', { description: 'Ping.', inputSchema: {}, annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'pong' }] }));
    const curated = await curate(app, { config: { groups: { g: { tools: ['*'] } }, modes: { m: { groups: ['g'] } }, defaultMode: 'm' } });
    const client = await inMemoryClient((t) => curated.connect(t), { name: 'fuzz' });
    try {
      for (const name of NAMES) {
        const calls: Array<[string, Record<string, unknown>]> = [
          ['focus_mode', { mode: name }],
          ['focus_mode', { enable_group: name }],
          ['focus_mode', { disable_group: name }],
          ['focus_mode', { intent: name }],
          ['search_tools', { query: 'ping', group: name }],
          ['search_tools', { query: name, enable: true }],
          ['describe_tools', { names: [name] }],
          ['execute_tool', { name, arguments: {} }],
          ['list_tool_groups', { group: name }],
          [name, {}],
        ];
        for (const [tool, args] of calls) {
          const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
          expect(Array.isArray(result.content), `${tool} ${JSON.stringify(args)}`).toBe(true);
        }
      }
      // Intents may switch to a preset mode: come back, and the session still works.
      const status = (await client.callTool({ name: 'focus_mode', arguments: { mode: 'm' } })) as CallToolResult;
      expect((status.structuredContent as { mode: string }).mode).toBe('m');
      expect(((await client.callTool({ name: 'ping', arguments: {} })) as CallToolResult).content).toEqual([{ type: 'text', text: 'pong' }]);
    } finally {
      await client.close();
      await curated.close();
    }
  }, 120_000);

  it('in HTTP paths: every answer is an HTTP status below 500, and the listener stays up', async () => {
    const app = new McpServer({ name: 'app', version: '1' });
    app.registerTool('ping', { description: 'Ping.', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'pong' }] }));
    const curated = await curate(app, {});
    const http = await serveHttp(curated.gateway, { port: 0 });
    const post = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${http.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'f', version: '1' } } }));
      });
    try {
      for (const name of NAMES) {
        for (const path of [`/${encodeURIComponent(name)}`, `/${encodeURIComponent(name).replace(/%[0-9A-F]{2}$/, '%E0%A4%A')}`]) {
          const status = await post(path);
          expect(status, path).toBeLessThan(500);
        }
      }
      expect(await post('')).toBe(200);
    } finally {
      await http.close();
      await curated.close();
    }
  }, 120_000);

  it('on the command line: serve --mode and rc names exit 2 with a message, never a stack', () => {
    const dir = tempTree({ 'package.json': '{}' });
    for (const name of ['toString', '__proto__', 'constructor', ...unicodeNames(2, 99)]) {
      const serve = spawnSync(process.execPath, [BIN, 'serve', '--mode', name], { cwd: dir, encoding: 'utf8', input: '' });
      expect(serve.status, name).toBe(2);
      expect(serve.stderr).toContain('Unknown mode');
      expect(serve.stderr).not.toMatch(/\n\s+at /);
    }
    const rcDir = tempTree({ 'package.json': '{}', '.lazytoolsrc.json': JSON.stringify({ defaultMode: 'toString', modes: { constructor: { groups: ['all'] } } }) });
    const check = spawnSync(process.execPath, [BIN, 'check'], { cwd: rcDir, encoding: 'utf8' });
    expect(check.status).toBe(2);
    expect(check.stderr).toContain('defaultMode: unknown mode "toString"');
  }, 120_000);
});
