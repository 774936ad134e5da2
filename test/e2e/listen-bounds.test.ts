import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Agent } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LISTEN_BYTES } from '../../src/transports/http-modern.js';
import { FIXTURES, modernMeta, rawListen, rawPost, rssMiB, serveHttpCli, stopAll, tempTree, type RawListen } from '../harness/index.js';

/**
 * What 2026-07-28 subscriptions/listen streams may hold of the gateway. A stream's request stays
 * in memory while the stream is open (the SDK holds it), and a groups listener's view digest is
 * cached: on the old main a listen with 1 MB of capabilities was accepted, and both the cache
 * (keyed on the capabilities) and the stream kept them: 200 such listens took the gateway from
 * ~135 to ~890 MB.
 */

const GROUPS = { extensions: { 'io.modelcontextprotocol/groups': {} } };
const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
const streams: RawListen[] = [];
afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  await stopAll();
});

function rc(dir: string, media: string[]): void {
  writeFileSync(
    path.join(dir, '.lazytoolsrc.json'),
    JSON.stringify({
      servers: { kitchen: { command: process.execPath, args: [FIXTURES.kitchenSink] } },
      groups: { basics: { tools: ['test_simple_text'] }, media_types: { tools: media } },
      modes: { basic: { description: 'Only the simple text tool', groups: ['basics'] }, media: { description: 'Media tools', groups: ['media_types'] } },
      defaultMode: 'media',
    }),
  );
}

async function gateway(watch = false) {
  const dir = tempTree({ 'package.json': '{}' });
  rc(dir, ['test_image_content', 'test_audio_content']);
  // A 96 MB old generation: V8 collects the refused bodies' garbage before RSS shows it (left to
  // its heuristics, concurrent marking on a busy machine let 200 refused 1 MB bodies read as 75-135
  // MB of growth), and memory the gateway kept would end it out of memory, which the test sees.
  const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=96` };
  const cli = await serveHttpCli(['--config', path.join(dir, '.lazytoolsrc.json'), ...(watch ? ['--watch'] : [])], { cwd: dir, env });
  return { ...cli, dir, port: Number(new URL(cli.url).port) };
}

const toolsList = (url: string) =>
  rawPost(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: modernMeta() } }), { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });

describe('subscriptions/listen streams', () => {
  it(`200 listens with unique 1 MB capabilities grow the gateway's RSS under 100 MB: a listen over ${MAX_LISTEN_BYTES} bytes is refused`, async () => {
    const served = await gateway();
    expect((await toolsList(served.url)).status).toBe(200);
    const before = rssMiB(served.child.pid!);
    for (let i = 0; i < 200; i++) {
      const capabilities = { ...GROUPS, experimental: { pad: { value: `${i}-${'x'.repeat(1024 * 1024)}` } } };
      const stream = await rawListen(served.port, { id: i, capabilities, agent });
      streams.push(stream);
      expect(stream.status).toBe(413);
      expect(stream.first).toContain(`subscriptions/listen request larger than ${MAX_LISTEN_BYTES} bytes`);
    }
    expect(rssMiB(served.child.pid!) - before).toBeLessThan(100);
    expect((await toolsList(served.url)).status).toBe(200);
  }, 120_000);

  it('listens of one view with unique capabilities each hear a regrouping once, and hold little memory', async () => {
    const served = await gateway(true);
    expect((await toolsList(served.url)).status).toBe(200);
    const before = rssMiB(served.child.pid!);
    for (let i = 0; i < 100; i++) {
      const capabilities = { ...GROUPS, experimental: { pad: { value: `${i}-${'x'.repeat(48 * 1024)}` } } };
      const stream = await rawListen(served.port, { id: `listen-${i}`, capabilities, agent });
      streams.push(stream);
      expect(stream.status).toBe(200);
    }
    expect(rssMiB(served.child.pid!) - before).toBeLessThan(100);
    rc(served.dir, ['test_image_content']);
    for (const [i, stream] of streams.entries()) await stream.heard(new RegExp(`groups/list_changed","params":\\{"_meta":\\{"io.modelcontextprotocol/subscriptionId":"listen-${i}"`));
    for (const stream of streams) expect(stream.text().match(/groups\/list_changed/g)).toHaveLength(1);
  }, 120_000);
});
