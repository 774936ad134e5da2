// tools/call round trip to server-everything `echo`: through `lazytools serve` (stdio) vs the
// same server called directly, interleaved in one run; and focus_mode -> list_changed latency.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { BIN, interleave, project, serverEntry, summary, round } from './lib.mjs';

export async function overheadStdio({ rounds = 2000 } = {}) {
  const { dir } = project(['everything'], { defaultMode: 'debugging' });
  const env = { ...process.env, LAZYTOOLS_QUIET: '1' };
  const direct = new Client({ name: 'bench', version: '1' });
  await direct.connect(new StdioClientTransport({ command: process.execPath, args: [serverEntry('everything'), 'stdio'], stderr: 'ignore', env }));
  const relay = new Client({ name: 'bench', version: '1' });
  await relay.connect(new StdioClientTransport({ command: process.execPath, args: [new URL('./relay.mjs', import.meta.url).pathname, process.execPath, serverEntry('everything'), 'stdio'], stderr: 'ignore', env }));
  const gateway = new Client({ name: 'bench', version: '1' });
  let resolveNotified;
  gateway.setNotificationHandler(ToolListChangedNotificationSchema, () => resolveNotified?.());
  await gateway.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve'], cwd: dir, stderr: 'ignore', env }));

  const args = { name: 'echo', arguments: { message: 'hello' } };
  const [directMs, relayMs, gatewayMs] = await interleave([() => direct.callTool(args), () => relay.callTool(args), () => gateway.callTool(args)], rounds);

  // focus switch -> list_changed received, and -> new tools/list answered
  const notifyMs = [];
  const listMs = [];
  const modes = ['security_review', 'debugging'];
  for (let i = 0; i < 220; i++) {
    const start = performance.now();
    const notified = new Promise((resolve) => (resolveNotified = resolve));
    const call = gateway.callTool({ name: 'focus_mode', arguments: { mode: modes[i % 2] } });
    await notified;
    const t1 = performance.now();
    await gateway.listTools();
    const t2 = performance.now();
    await call;
    if (i >= 20) {
      notifyMs.push(t1 - start);
      listMs.push(t2 - start);
    }
  }
  await direct.close();
  await relay.close();
  await gateway.close();
  const d = summary(directMs);
  const r = summary(relayMs);
  const g = summary(gatewayMs);
  return {
    direct: d,
    relay: r,
    relayRatioP50: round(r.p50 / d.p50, 2),
    gateway: g,
    ratioP50: round(g.p50 / d.p50, 2),
    ratioP99: round(g.p99 / d.p99, 2),
    listChanged: summary(notifyMs),
    listAfterSwitch: summary(listMs),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await overheadStdio({ rounds: Number(process.argv[2] ?? 2000) }), null, 2));
