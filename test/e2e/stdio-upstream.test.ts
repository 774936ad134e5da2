import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.js';
import { createUpstreams } from '../../src/upstream/connect.js';
import { ANSWER_BACKLOG_BYTES, MAX_STDERR_LINE, REQUEST_BACKLOG_BYTES, StdioUpstreamTransport } from '../../src/upstream/stdio-transport.js';
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

  it('says the cwd is missing, not the command, when the working folder does not exist', async () => {
    const env = { PATH: path.dirname(process.execPath) };
    const missing = path.join(FIXTURES.rawServer, '..', 'no-such-folder');
    const start = new StdioUpstreamTransport({ command: process.execPath, args: [serverEntry('memory')], env, cwd: missing, onStderr: () => {} }).start();
    await expect(start).rejects.toThrow(/^cwd ".*no-such-folder" is not a folder that exists: set "cwd"/);
    // The command itself missing still reads as Node says it.
    const command = new StdioUpstreamTransport({ command: path.join(path.dirname(process.execPath), 'no-such-node'), args: [], env, cwd: undefined, onStderr: () => {} }).start();
    await expect(command).rejects.toThrow(/ENOENT/);
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

  /**
   * A child's stderr is relayed to ours line by line. On the old main a child writing without
   * newlines grew our memory by all of it (and each chunk re-split all of it: 50 MB cost 850 MB
   * of RSS and seconds of blocked event loop), and its escape sequences reached the terminal.
   */
  it('relays stderr lines cut at a bound, control characters escaped, whatever the child writes', async () => {
    const lines: string[] = [];
    let seen: () => void = () => {};
    const done = new Promise<void>((resolve) => (seen = resolve));
    const logger = { warn: () => {}, error: () => {}, info: (message: string) => (lines.push(message), message.includes('done') && seen()) };
    const config = resolveConfig({ servers: { loud: { command: process.execPath, args: [FIXTURES.rawServer, 'stderr-flood'], env: { RAW_STDERR_MB: '40' } } } });
    const [upstream] = createUpstreams(config, { logger, env: { PATH: process.env.PATH ?? '' } });
    if (!upstream) throw new Error('no upstream');
    try {
      await upstream.start();
      await done;
      expect(lines).toHaveLength(2);
      const [long, escapes] = lines as [string, string];
      expect(long.length).toBeLessThan(MAX_STDERR_LINE + 100);
      expect(long).toMatch(new RegExp(`^\\[loud\\] x+… \\(${40 * 2 ** 20 - MAX_STDERR_LINE} more characters\\)$`));
      expect(escapes).toBe('[loud] red \\u001b[31m\\u001b]52;c;ZXZpbA==\\u0007 \\u009b2J \\u202eevil\\u000ddone');
      expect(upstream.status).toBe('ready');
    } finally {
      await upstream.stop();
    }
  });
});

/**
 * A child that never reads its stdin: what we write to it stays in our memory. Answers to its own
 * requests are dropped past ANSWER_BACKLOG_BYTES (each reported), our requests fail past
 * REQUEST_BACKLOG_BYTES, and no send waits for a drain that will never come (on the old main each
 * answer's promise waited on its own `drain` listener: memory and listener removal grew without
 * bound, and these sends never resolved).
 */
describe('stdio upstream that does not read its input', () => {
  it('drops answers past a bounded backlog, fails requests past a larger one, and never waits on a drain', async () => {
    const transport = new StdioUpstreamTransport({ command: process.execPath, args: ['-e', 'process.stdin.pause(); setInterval(() => {}, 60_000)'], env: {}, cwd: undefined, onStderr: () => {} });
    let dropped = 0;
    transport.onAnswerDropped = () => dropped++;
    await transport.start();
    const stdin = (transport as unknown as { child: { stdin: { writableLength: number } } }).child.stdin;
    try {
      const answers = 60_000;
      await Promise.all(Array.from({ length: answers }, (_, i) => transport.send({ jsonrpc: '2.0', id: `flood-${i}`, result: {} })));
      expect(dropped).toBeGreaterThan(0);
      expect(stdin.writableLength).toBeLessThan(ANSWER_BACKLOG_BYTES + 1024);
      const big = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name: 'x', arguments: { text: 'x'.repeat(4 * 1024 * 1024) } } };
      let failure: Error | undefined;
      for (let i = 0; i < 20 && !failure; i++) await transport.send({ ...big, id: i }).catch((error: Error) => (failure = error));
      expect(failure?.message).toMatch(/^upstream process is not reading its input \(\d+ MiB unread\)$/);
      expect(stdin.writableLength).toBeLessThan(REQUEST_BACKLOG_BYTES + 5 * 1024 * 1024);
    } finally {
      await transport.close();
    }
  }, 30_000);
});
