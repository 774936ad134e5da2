import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { createUpstreams } from '../../src/upstream/connect.js';
import { StdioUpstreamTransport } from '../../src/upstream/stdio-transport.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { FIXTURES, serverEntry } from '../harness/index.js';

describe('stdio upstream (real process)', () => {
  it('starts a bare command name found in the child PATH, as an rc from a client config writes it', async () => {
    const env = { PATH: path.dirname(process.execPath) };
    const upstream = new Upstream('memory', {
      connect: () => new StdioUpstreamTransport({ command: 'node', args: [serverEntry('memory')], env, cwd: undefined, onStderr: () => {} }),
    });
    try {
      await upstream.start();
      expect(upstream.status).toBe('ready');
      expect(upstream.tools.map((tool) => tool.name)).toContain('read_graph');
    } finally {
      await upstream.stop();
    }
  });

  it('warns once, naming the server and how to silence it, when a server logs to stdout', async () => {
    const warnings: string[] = [];
    const logger = { info: () => {}, error: () => {}, warn: (message: string) => warnings.push(message) };
    const config = resolveConfig({ servers: { chatty: { command: process.execPath, args: [FIXTURES.rawServer, 'banner'] } } });
    const [upstream] = createUpstreams(config, { logger, env: { PATH: process.env.PATH ?? '' } });
    if (!upstream) throw new Error('no upstream');
    try {
      // A banner before its answer to initialize, then a JSON log line before every answer.
      await upstream.start();
      for (let i = 0; i < 3; i++) {
        const answer = await new Promise<unknown>((resolve, reject) => upstream.relay({ name: 'ok', arguments: {} }, (error, result) => (error ? reject(error) : resolve(result))));
        expect(answer).toEqual({ content: [{ type: 'text', text: 'ok called' }] });
      }
      // Every stdout line before an answer is read before that answer: all of them were seen by now.
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^chatty: writes lines that are not MCP messages to stdout \(first: "Starting raw server v1"\)/);
      expect(warnings[0]).toMatch(/log to stderr/);
    } finally {
      await upstream.stop();
    }
  });
});
