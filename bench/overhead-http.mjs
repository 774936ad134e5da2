// tools/call round trip to server-everything `echo` over Streamable HTTP: lazytools vs the
// pass-through proxy mcp-proxy (npm), both fronting the same server over stdio, interleaved.
import { spawn } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import path from 'node:path';
import { BIN, ownSignalFetch, ROOT, interleave, project, promptAndResource, serverEntry, summary, round, waitForPort } from './lib.mjs';

export async function overheadHttp({ rounds = 1000, lazyPort = 18_601, peerPort = 18_602 } = {}) {
  const { dir } = project(['everything'], { defaultMode: 'debugging' });
  const env = { ...process.env, LAZYTOOLS_QUIET: '1' };
  const lazy = spawn(process.execPath, [BIN, 'serve', '--http', `127.0.0.1:${lazyPort}`], { cwd: dir, env, stdio: 'ignore' });
  const peerBin = path.join(ROOT, 'node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs');
  const peer = spawn(process.execPath, [peerBin, '--host', '127.0.0.1', '--port', String(peerPort), '--server', 'stream', '--', process.execPath, serverEntry('everything'), 'stdio'], { env, stdio: 'ignore' });
  try {
    const lazyUrl = `http://127.0.0.1:${lazyPort}/mcp`;
    const peerUrl = `http://127.0.0.1:${peerPort}/mcp`;
    await Promise.all([waitForPort(lazyUrl, lazy), waitForPort(peerUrl, peer)]);
    const connect = async (url) => {
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: ownSignalFetch }));
      return client;
    };
    const a = await connect(lazyUrl);
    const b = await connect(peerUrl);
    const args = { name: 'echo', arguments: { message: 'hello' } };
    const [lazyMs, peerMs] = await interleave([() => a.callTool(args), () => b.callTool(args)], rounds);
    // prompts/get and resources/read: the first argument-free prompt and the first resource.
    const { prompt, resource } = await promptAndResource(b);
    const [lazyGet, peerGet] = await interleave([() => a.getPrompt({ name: prompt.name }), () => b.getPrompt({ name: prompt.name })], rounds);
    const [lazyRead, peerRead] = await interleave([() => a.readResource({ uri: resource.uri }), () => b.readResource({ uri: resource.uri })], rounds);
    await a.close();
    await b.close();
    const l = summary(lazyMs);
    const p = summary(peerMs);
    const ratio = (x, y) => round(summary(x).p50 / summary(y).p50, 2);
    return {
      lazytools: l,
      mcpProxy: p,
      ratioP50: round(l.p50 / p.p50, 2),
      ratioP99: round(l.p99 / p.p99, 2),
      promptsGetRatioP50: ratio(lazyGet, peerGet),
      resourcesReadRatioP50: ratio(lazyRead, peerRead),
    };
  } finally {
    lazy.kill('SIGTERM');
    peer.kill('SIGTERM');
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await overheadHttp({ rounds: Number(process.argv[2] ?? 1000) }), null, 2));
