// A flood on one upstream slows only that one: the latency of a healthy upstream's
// tools/call through `lazytools serve` (stdio), at rest and while another upstream floods the
// gateway with messages of one kind (tools/prompts/resources list changes, log messages,
// resources/updated; requests to its client: `ping`, `roots`; `stray` answers to ids never sent;
// `ping-deaf`: pings from a server that never reads the answers, run last, as that server is
// unusable after it), `count` of them (default 20,000; 0: endless until the calls end) written as
// fast as its pipe takes them. Also counts the re-lists the flood caused and the gateway's RSS
// after each flood. Usage: node bench/flood.mjs [calls] [count] [kinds,...]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, ROOT, round, stdioClient, summary } from './lib.mjs';

const FIXTURE = path.join(ROOT, 'test/fixtures/servers/flood.mjs');

function rssMb(pid) {
  try {
    return round(Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) / 1024, 1);
  } catch {
    return undefined;
  }
}

async function timedCalls(client, name, calls) {
  const samples = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await client.callTool({ name, arguments: {} });
    samples.push(performance.now() - start);
  }
  return { ...summary(samples), max: round(Math.max(...samples)) };
}

export async function flood({ calls = 200, count = 20_000, kinds = ['tools', 'prompts', 'resources', 'message', 'updated'] } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lazytools-flood-'));
  writeFileSync(path.join(dir, 'package.json'), '{}');
  const server = (name) => ({ command: process.execPath, args: [FIXTURE], env: { FLOOD_NAME: name } });
  writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify({ servers: { noisy: server('noisy'), calm: server('calm') }, defaultMode: 'all' }));
  let heard = 0;
  const client = await stdioClient([BIN, 'serve'], { cwd: dir, setup: (c) => c.setNotificationHandler('notifications/message', () => heard++) });
  const pid = client.transport?.pid;
  await client.listTools();
  // Both upstreams up and warm.
  await timedCalls(client, 'noisy_ok', 20);
  const rest = await timedCalls(client, 'calm_ok', calls);
  const out = { calls, count, rest, rssAtRestMb: pid ? rssMb(pid) : undefined, floods: {} };
  const deaf = kinds.includes('ping-deaf');
  for (const kind of [...kinds.filter((k) => k !== 'ping-deaf'), ...(deaf ? ['ping-deaf'] : [])]) {
    const lists = async () => (kind === 'ping-deaf' ? undefined : JSON.parse((await client.callTool({ name: 'noisy_lists', arguments: {} })).content[0].text));
    const before = await lists();
    const args = { kind: kind === 'ping-deaf' ? 'ping' : kind, deaf: kind === 'ping-deaf', ...(count > 0 ? { count } : {}) };
    await client.callTool({ name: 'noisy_flood', arguments: args });
    const during = await timedCalls(client, 'calm_ok', calls);
    if (kind !== 'ping-deaf') await client.callTool({ name: 'noisy_stop', arguments: {} });
    const after = await lists();
    const relists = after && Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
    out.floods[kind] = { during, ratioP50: round(during.p50 / rest.p50, 2), relists, rssMb: pid ? rssMb(pid) : undefined };
  }
  out.logMessagesHeard = heard;
  // SIGTERM after the floods: how long the gateway takes to end (it once could not).
  const started = performance.now();
  const ended = new Promise((resolve) => client.transport?._process?.once('exit', resolve));
  if (pid) process.kill(pid, 'SIGTERM');
  out.sigtermExitMs = await Promise.race([ended.then(() => round(performance.now() - started)), new Promise((resolve) => setTimeout(() => resolve('not within 30 s'), 30_000).unref())]);
  await client.close();
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await flood({ calls: Number(process.argv[2] ?? 200), count: Number(process.argv[3] ?? 20_000), ...(process.argv[4] ? { kinds: process.argv[4].split(',') } : {}) }), null, 2));
