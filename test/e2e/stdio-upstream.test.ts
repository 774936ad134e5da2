import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StdioUpstreamTransport } from '../../src/upstream/stdio-transport.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { serverEntry } from '../harness/index.js';

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
});
