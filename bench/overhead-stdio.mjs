// tools/call round trip to server-everything `echo`: through `lazytools serve` (stdio) vs the
// same server called directly, interleaved in one run; and focus_mode -> list_changed latency.
import { BIN, cpuMs, interleave, project, serverEntry, stdioClient, summary, round } from './lib.mjs';

export async function overheadStdio({ rounds = 2000 } = {}) {
  const { dir } = project(['everything'], { defaultMode: 'debugging' });
  const direct = await stdioClient([serverEntry('everything'), 'stdio']);
  const relay = await stdioClient([new URL('./relay.mjs', import.meta.url).pathname, process.execPath, serverEntry('everything'), 'stdio']);
  let resolveNotified;
  const gateway = await stdioClient([BIN, 'serve'], { cwd: dir, setup: (client) => client.setNotificationHandler('notifications/tools/list_changed', () => resolveNotified?.()) });

  const args = { name: 'echo', arguments: { message: 'hello' } };
  const calls = [() => direct.callTool(args), () => relay.callTool(args), () => gateway.callTool(args)];
  await interleave(calls, 200, 0);
  const cpuBefore = { relay: cpuMs(relay.pid), gateway: cpuMs(gateway.pid) };
  const [directMs, relayMs, gatewayMs] = await interleave(calls, rounds, 0);
  // CPU of the process in the middle per call, after the warm-up: what other load on the machine does not move.
  const perCall = (pid, before) => (before === undefined ? undefined : round((1000 * (cpuMs(pid) - before)) / rounds, 1));
  const cpuUsPerCall = { relay: perCall(relay.pid, cpuBefore.relay), gateway: perCall(gateway.pid, cpuBefore.gateway) };

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
    cpuUsPerCall,
    listChanged: summary(notifyMs),
    listAfterSwitch: summary(listMs),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await overheadStdio({ rounds: Number(process.argv[2] ?? 2000) }), null, 2));
