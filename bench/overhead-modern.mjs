// The 2026-07-28 era over HTTP: a v2 Client pinned to 2026-07-28 calls `test_simple_text` on the
// kitchen-sink fixture (both eras) directly and through `lazytools serve --http` (the fixture as a
// stdio upstream), interleaved; and, beside it, a 2025 client through mcp-proxy in front of the
// same fixture, the pass-through the HTTP target compares with.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BIN, ownSignalFetch, ROOT, interleave, project, round, summary, waitForPort } from './lib.mjs';

const FIXTURE = path.join(ROOT, 'test/fixtures/kitchen-sink.mjs');

/** Starts a process and resolves with the first URL it prints on `stream`. */
function started(args, stream, env) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  return new Promise((resolve, reject) => {
    let text = '';
    child[stream].on('data', (chunk) => {
      text += chunk;
      const url = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(text)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`${path.basename(args[0])} exited (${code}): ${text}`)));
  });
}

export async function overheadModern({ rounds = 1000, peerPort = 18_651 } = {}) {
  const env = { ...process.env, LAZYTOOLS_QUIET: '1' };
  const { dir, file } = project([], { defaultMode: 'all' });
  writeFileSync(file, JSON.stringify({ servers: { kitchen: { command: process.execPath, args: [FIXTURE] } }, defaultMode: 'all' }));
  const direct = await started([FIXTURE, '--http', '0'], 'stdout', env);
  const lazy = await started([BIN, 'serve', '--config', file, '--http', '127.0.0.1:0'], 'stderr', { ...env, LAZYTOOLS_QUIET: '' });
  const peer = spawn(process.execPath, [path.join(ROOT, 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs'), '--host', '127.0.0.1', '--port', String(peerPort), '--server', 'stream', '--', process.execPath, FIXTURE], { env, stdio: 'ignore', cwd: dir });
  const peerUrl = `http://127.0.0.1:${peerPort}/mcp`;
  try {
    await waitForPort(peerUrl, peer);
    const connect = async (url, pin) => {
      const client = new Client({ name: 'bench', version: '1' }, pin ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: ownSignalFetch }));
      return client;
    };
    const a = await connect(direct.url, true);
    const b = await connect(lazy.url, true);
    const c = await connect(peerUrl, false);
    const args = { name: 'test_simple_text', arguments: {} };
    const [directMs, lazyMs, peerMs] = await interleave([() => a.callTool(args), () => b.callTool(args), () => c.callTool(args)], rounds);
    for (const client of [a, b, c]) await client.close();
    const d = summary(directMs);
    const l = summary(lazyMs);
    const p = summary(peerMs);
    return { direct: d, lazytools: l, mcpProxy2025: p, ratioVsDirectP50: round(l.p50 / d.p50, 2), ratioVsPeerP50: round(l.p50 / p.p50, 2) };
  } finally {
    direct.child.kill();
    lazy.child.kill('SIGTERM');
    peer.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await overheadModern({ rounds: Number(process.argv[2] ?? 1000) }), null, 2));
