import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GITHUB_CATALOG, REFERENCE_CATALOG, runCli, startCli, stopAll, tempTree } from '../harness/index.js';

/**
 * Every message a new user meets on the command line says what was wrong, what was
 * expected and what to do next. Each test runs the built CLI (npm test builds first).
 */
const cli = (args: string[], cwd: string) => runCli(args, { cwd });

afterEach(() => stopAll());

/** A long-running CLI process (the harness's), its exit as the code alone. */
function start(args: string[], cwd: string) {
  const cli = startCli(args, { cwd });
  return { ...cli, exited: cli.exited.then(({ code }) => code) };
}

/** A port with a listener on it, for the port-in-use message. */
async function occupiedPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

function getStatus(port: number, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'GET', headers: { Host: host, Accept: 'text/event-stream' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const project = (files: Record<string, string> = {}) => tempTree({ 'package.json': '{}', ...files });
const catalogs = ['--catalog', GITHUB_CATALOG, '--catalog', REFERENCE_CATALOG];

describe('lazytools CLI messages', () => {
  it('1: stats does not suggest adding a tool to a mode that already has it', () => {
    const dir = project({ '.lazytoolsrc.json': '{"usage": true}' });
    mkdirSync(path.join(dir, '.lazytools'));
    const record = (tool: string, mode: string) => JSON.stringify({ t: '2026-01-01T00:00:00Z', mode, tool, via: 'execute_tool' });
    const lines = [...Array(3).fill(record('everything:echo', 'debugging')), ...Array(3).fill(record('everything:echo', 'development'))];
    writeFileSync(path.join(dir, '.lazytools', 'usage.jsonl'), `${lines.join('\n')}\n`);
    const { code, stdout } = cli(['stats', '--catalog', REFERENCE_CATALOG], dir);
    expect(code).toBe(0);
    expect(stdout).not.toContain('add "everything:echo" to a group of mode debugging');
    expect(stdout).toContain("debugging: everything:echo was reached 3 times around the list (execute_tool 3, after search 0); it is already in mode debugging's list");
    expect(stdout).toContain('"strategy": "proxy"');
    expect(stdout).toContain('development: everything:echo was reached 3 times around the list (execute_tool 3, after search 0); add group "diagnostics"');
  });

  it('4: --http PORT serves 127.0.0.1:PORT', async () => {
    const { server, port } = await occupiedPort();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const served = start(['serve', '--http', String(port)], project());
    await served.stderrMatching(new RegExp(`serving http://127\\.0\\.0\\.1:${port}/mcp`));
    expect(served.stderr()).not.toContain('non-loopback');
    expect(cli(['serve', '--http', '70000'], project()).stderr).toContain('--http: expected PORT or HOST:PORT with a port from 0 to 65535 (e.g. 8080 or 127.0.0.1:8080), got "70000"');
  });

  it('5: --allow-host NAME accepts NAME on any port; --allow-host NAME:PORT only that port', async () => {
    const served = start(['serve', '--http', '0', '--allow-host', 'myhost.local', '--allow-host', 'other.local:1'], project());
    const port = Number((await served.stderrMatching(/serving http:\/\/127\.0\.0\.1:(\d+)\/mcp/))[1]);
    expect((await getStatus(port, `myhost.local:${port}`)).status).not.toBe(403);
    expect((await getStatus(port, 'myhost.local')).status).not.toBe(403);
    expect((await getStatus(port, 'other.local:1')).status).not.toBe(403);
    const refused = await getStatus(port, `other.local:${port}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain(`start lazytools serve with --allow-host other.local (any port) or --allow-host other.local:${port}`);
    const help = cli(['serve', '--help'], project()).stdout;
    expect(help).toContain('"name" accepts name on any port');
  });

  it('8: status never hides an increase: signed reduction, the bar shows catalog tokens kept, a legend explains the all row', () => {
    const dir = project({
      'tiny.json': JSON.stringify({ servers: { tiny: { tools: [{ name: 'ping', description: 'Ping.', inputSchema: { type: 'object' } }] } } }),
      '.lazytoolsrc.json': JSON.stringify({ groups: { tiny: { servers: ['tiny'] }, none: { tools: [] } }, modes: { nothing: { description: 'No tools', groups: ['none'] } } }),
    });
    const { code, stdout } = cli(['status', '--catalog', 'tiny.json'], dir);
    expect(code).toBe(0);
    const row = stdout.split('\n').find((line) => line.startsWith('nothing'));
    expect(row).toMatch(/^nothing\s+0\/1\s+\d+\/\d+\s+-\d+\.\d%\s+-\s+ok\s+-\s+\.{20}$/);
    expect(stdout).toContain("tokens = the mode's tools + lazytools' own tools (");
    expect(stdout).toContain("A negative reduction means lazytools' own tools cost more than the mode saves.");
    // Listed verbatim, mode all costs the catalog plus lazytools' own tools (compact definitions would cut it).
    const big = cli(['status', ...catalogs], project({ '.lazytoolsrc.json': '{"definitions":"verbatim"}' }));
    const all = /^all\s+154\/154\s+(\d+)\/29579\s+(-\d+\.\d)%/m.exec(big.stdout);
    const own = Number(/lazytools' own tools \((\d+) tokens\), against all 154 catalog tools \(29579 tokens\)/.exec(big.stdout)?.[1]);
    expect(Number(all?.[1])).toBe(29_579 + own);
    expect(Number(all?.[2])).toBeCloseTo((-own / 29_579) * 100, 1);
  });

  it('9: an unclear phrase lists the modes with their descriptions, not alphabetical zero-confidence names', () => {
    const { code, stdout } = cli(['mode', 'x'], project());
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/closest/i);
    expect(stdout).toContain('No mode matches "x"');
    expect(stdout).toContain('- security_review: Security and access audit, read-only');
    const json = JSON.parse(cli(['mode', 'x', '--json'], project()).stdout) as { mode: null; alternatives: unknown[] };
    expect(json).toEqual({ mode: null, confidence: 0, alternatives: [] });
    // With 3,000 modes the list is whole lines, then how many more: it printed 218 KB.
    const many = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`m${i}`, { description: `Mode number ${i} for work of kind ${i}`, groups: ['all'] }]));
    const long = cli(['mode', 'x'], project({ '.lazytoolsrc.json': JSON.stringify({ modes: many }) }));
    expect(long.code).toBe(0);
    expect(long.stdout.length).toBeLessThan(7_000);
    expect(long.stdout).toMatch(/… and \d+ more modes\.\nThen run: lazytools mode/);
  });

  it('10: check --format github annotates a config error; conflicting output flags are an error', () => {
    const dir = project({ '.lazytoolsrc.json': '{"modes":{"security_review":{"budgte":100}}}' });
    const checked = cli(['check', ...catalogs, '--format', 'github'], dir);
    expect(checked.code).toBe(2);
    expect(checked.stdout).toMatch(/^::error file=.*\.lazytoolsrc\.json,title=lazytools config::.*Unrecognized key: "budgte"/m);
    const both = cli(['status', ...catalogs, '--json', '--markdown'], project());
    expect(both.code).toBe(2);
    expect(both.stdout).toBe('');
    expect(both.stderr).toContain('--json and --markdown both choose the output format: pass one of them');
  });

  it('11: flags that do not apply are errors; --idle-timeout values get a clear message', () => {
    for (const flags of [['--token', 't'], ['--allow-host', 'h'], ['--force'], ['--idle-timeout', '60'], ['--allow-origin', 'http://x'], ['--max-sessions', '5']]) {
      const { code, stderr } = cli(['serve', ...flags], project());
      expect(code).toBe(2);
      expect(stderr).toContain(`${flags[0]} applies only to HTTP, and without --http this serves stdio: add --http PORT (or HOST:PORT), or drop it`);
    }
    const abc = cli(['serve', '--http', '0', '--idle-timeout', 'abc'], project());
    expect(abc.code).toBe(2);
    expect(abc.stderr).toContain('--idle-timeout: expected a positive whole number of seconds up to 2147483 (e.g. --idle-timeout 1800), got "abc"');
    const negative = cli(['serve', '--http', '0', '--idle-timeout', '-5'], project());
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('--idle-timeout: expected a positive whole number, got "-5"');
    expect(negative.stderr).not.toContain('ambiguous');
  });

  it('12: with no rc and no lock, search says what works; serve says it serves 0 tools and how to add servers', async () => {
    const dir = project();
    const searched = cli(['search', 'files'], dir);
    expect(searched.code).toBe(2);
    expect(searched.stderr).toContain('no rc file found');
    expect(searched.stderr).toContain('Pass --catalog FILE');
    expect(searched.stderr).toContain('lazytools init --from');
    const lock = cli(['lock'], dir);
    expect(lock.code).toBe(2);
    expect(lock.stderr).toContain('nothing to lock: no rc file found. Import your client\'s servers with `lazytools init --from');
    const withServers = cli(['search', 'files'], project({ '.lazytoolsrc.json': '{"servers":{"x":{"command":"true"}}}' }));
    expect(withServers.stderr).toContain('lists 1 server(s) but there is no lazytools.lock.json beside it: run `lazytools lock`');
    const served = start(['serve'], dir);
    await served.stderrMatching(/serving 0 tools: no rc file found/);
    expect(served.stderr()).toContain('lazytools init --from');
    served.child.stdin.end();
    expect(await served.exited).toBe(0);
  });

  it('13: a bad JSON rc prints its code frame once; a port in use names the port and what to do', async () => {
    const dir = project({ '.lazytoolsrc.json': '{\n  "budget": 5,\n  "modes": {\n    "x": {,}\n  }\n}\n' });
    const { code, stderr } = cli(['status', ...catalogs], dir);
    expect(code).toBe(2);
    expect(stderr.match(/> 4 \|/g)).toHaveLength(1);
    expect(stderr).not.toContain('while parsing');
    expect(stderr).toContain('Fix the file, or pass --config FILE');
    const broken = project({ 'package.json': '{"name":"x","lazytools":{"budget": 5,,}}' });
    const pkg = cli(['status', ...catalogs], broken);
    expect(pkg.code).toBe(2);
    expect(pkg.stderr).toContain('package.json: could not read config:');

    const { server, port } = await occupiedPort();
    try {
      const busy = cli(['serve', '--http', `127.0.0.1:${port}`], project());
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(`cannot serve on 127.0.0.1:${port}: the port is already in use.`);
      expect(busy.stderr).toContain('--http 0 for any free port');
      expect(busy.stderr).not.toContain('EADDRINUSE');
    } finally {
      server.close();
    }
  });

  it('14: a timeout past what a Node timer waits (2^31 - 1 ms) is an error naming it, not a timer that fires after 1 ms', () => {
    const rc = { servers: { notes: { command: 'node', args: ['notes.js'], startTimeout: 3_000_000_000 } }, startTimeout: 30_000 };
    const dir = project({ '.lazytoolsrc.json': JSON.stringify(rc) });
    const locked = cli(['lock'], dir);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toContain('at most 2147483647 ms (about 24.8 days, the longest a timer waits)\n  → at servers.notes.startTimeout');
    expect(locked.stderr).not.toContain('TimeoutOverflowWarning');
    for (const args of [['auth', 'notes', '--timeout', '3000000'], ['serve', '--http', '0', '--idle-timeout', '3000000']]) {
      const { code, stderr } = cli(args, project());
      expect(code).toBe(2);
      expect(stderr).toContain(`${args.find((a) => a.endsWith('timeout'))}: expected a positive whole number of seconds up to 2147483 (e.g.`);
    }
  });
});
