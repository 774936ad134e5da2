import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { BIN, rcProject, runCli, tempTree } from '../harness/index.js';

/** Short usage errors, complete --help from one spec, serve's connect and TTY messages. */

const cli = (args: string[], cwd = tempTree({ 'package.json': '{}' })) => runCli(args, { cwd });

const COMMANDS = [...cli(['--help']).stdout.matchAll(/^ {2}(\w+) /gm)].map((m) => m[1] ?? '');

describe('usage errors', () => {
  it.each([
    [['status', '--jsno'], 'lazytools status: unknown option "--jsno". Did you mean "--json"?'],
    [['check', '--format', 'xml'], 'lazytools check: --format: expected "text" or "github", got "xml"'],
    [['search'], 'lazytools search: expected a QUERY'],
    [['stauts'], 'lazytools: unknown command "stauts". Did you mean'],
    // It served without a token: `--token "$TOKEN"` with TOKEN unset left the gateway open.
    [['serve', '--http', '127.0.0.1:0', '--token', ''], 'lazytools serve: --token: expected a token, got an empty value'],
    [['serve', '--http', '127.0.0.1:0', '--token= '], 'lazytools serve: --token: expected a token, got an empty value'],
  ])('%j prints the error and one line pointing at --help', (args, first) => {
    const { code, stdout, stderr } = cli(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(first);
    expect(lines[1]).toMatch(/^Run `lazytools (\w+ )?--help` for its options\.$|^Run `lazytools --help` for the commands\.$/);
  });
});

describe('a flag value quoted in a usage error', () => {
  // A pasted blob with a line that GitHub Actions would read as a workflow command.
  const value = `${'x'.repeat(50_000)}\n::error::pasted`;
  const mcp = JSON.stringify({ mcpServers: { notes: { command: 'node', args: ['notes.js'] } } });
  it.each([
    ['check --format', ['check', '--format', value]],
    ['serve --strategy', ['serve', '--strategy', value]],
    ['serve --http', ['serve', '--http', value]],
    ['init --strategy', ['init', '--from', 'mcp.json', '--strategy', value]],
    ['init --from', ['init', '--from', value]],
    ['auth SERVER', ['auth', 'a', value]],
  ])('%s: the value is cut and kept on one line', (command, args) => {
    const { code, stdout, stderr } = cli(args as string[], tempTree({ 'package.json': '{}', 'mcp.json': mcp }));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`lazytools ${command.split(' ')[0]}: `);
    expect(lines[0]).toContain(command.split(' ')[1] === 'SERVER' ? 'expected one server' : `${command.split(' ')[1]}: `);
    expect(lines[0]).not.toContain('\n::error::');
    expect(stderr.length).toBeLessThan(1_000);
  });
});

describe('config errors of every command that reads the rc', () => {
  // Each: exit 2, one message naming the file and the key path, no stack. (An unset ${VAR} is
  // refused by `lock`, see lock.test.ts; `serve` serves the other servers without its server.)
  const badType = rcProject({ servers: { notes: { command: 5 } } });
  const unsetLock = rcProject({ servers: { notes: { command: process.execPath, env: { NOTES_KEY: '${LT_USAGE_UNSET_NOTES_KEY}' } } } });
  it.each(['serve', 'status', 'check', 'groups', 'lock', 'stats'])('%s', (command) => {
    const typed = cli([command], badType.dir);
    expect(typed.code).toBe(2);
    expect(typed.stderr).toContain(`lazytools ${command}: ${badType.file}: invalid config`);
    expect(typed.stderr).toMatch(/expected string, received number\n\s+→ at servers\.notes\.command/);
    const missing = path.join(badType.dir, 'missing.json');
    const absent = cli([command, '--config', missing], badType.dir);
    expect(absent.code).toBe(2);
    expect(absent.stderr.trimEnd()).toBe(`lazytools ${command}: ${missing}: config file not found`);
    const unset = cli([command], unsetLock.dir);
    if (command === 'lock') {
      expect(unset.code).toBe(2);
      expect(unset.stderr).toContain(`${unsetLock.file}: servers.notes.env.NOTES_KEY: environment variable LT_USAGE_UNSET_NOTES_KEY is not set`);
    }
    if (command === 'serve') expect(unset.stderr).toContain(`${unsetLock.file}: upstream "notes" is disabled: servers.notes.env.NOTES_KEY: environment variable LT_USAGE_UNSET_NOTES_KEY is not set`);
    for (const run of [typed, absent, unset]) expect(run.stderr).not.toMatch(/\n\s+at |Error: /);
  });
});

describe('--help of every command', () => {
  it('knows the commands', () => {
    expect(COMMANDS.sort()).toEqual(['auth', 'check', 'groups', 'init', 'lock', 'mode', 'search', 'serve', 'stats', 'status']);
  });

  it.each(COMMANDS)('%s --help describes every flag of its synopsis', (command) => {
    const help = cli([command, '--help']);
    expect(help.code).toBe(0);
    const usage = help.stdout.slice(help.stdout.indexOf('Usage:'));
    const synopsis = usage.slice(0, usage.indexOf('\n\n'));
    const body = usage.slice(synopsis.length);
    const named = [...new Set(synopsis.match(/--[a-z][\w-]*/g) ?? [])].sort();
    const described = [...new Set([...body.matchAll(/^ {2}(?:-\w, )?(--[a-z][\w-]*)/gm)].map((m) => m[1] ?? ''))].filter((f) => f !== '--help' && f !== '--version').sort();
    expect(named.length).toBeGreaterThan(0);
    expect(described).toEqual(named);
    expect(body).toMatch(/^ {2}-h, --help /m);
  });

  it('help COMMAND prints that command\'s --help; help with an unknown command is a usage error', () => {
    const asked = cli(['help', 'status']);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toBe(cli(['status', '--help']).stdout);
    expect(asked.stdout).toContain('Usage: lazytools status');
    const unknown = cli(['help', 'stauts']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('lazytools: unknown command "stauts". Did you mean');
  });
});

describe('serve tells a person what is going on', () => {
  it('serve --http prints each client\'s connect snippet for the URL on stderr', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--http', '127.0.0.1:0'], { cwd: tempTree({ 'package.json': '{}' }), env: { ...process.env, LAZYTOOLS_TOKEN: '' } });
    let stderr = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          if (/VS Code .*\n/.test(stderr)) resolve();
        });
        child.once('exit', () => reject(new Error(`exited: ${stderr}`)));
      });
    } finally {
      child.kill();
    }
    const url = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr)?.[1] ?? '';
    expect(url).not.toBe('');
    expect(stderr).toContain(`Claude Code    claude mcp add --transport http lazytools ${url}`);
    expect(stderr).toContain(`Cursor         {"mcpServers":{"lazytools":{"url":"${url}"}}}`);
    expect(stderr).toContain(`VS Code        {"servers":{"lazytools":{"type":"http","url":"${url}"}}}`);
    expect(stderr).toContain(`"args":["-y","mcp-remote","${url}"]`);
  });

  it('stdio serve in a terminal says it waits for an MCP client (stdin a TTY, through script(1))', () => {
    const script = spawnSync('script', ['--version'], { encoding: 'utf8' });
    expect(script.status, 'script(1) from util-linux gives the gateway a terminal').toBe(0);
    const dir = tempTree({ 'package.json': '{}' });
    // The terminal closes when `script` reaches the end of its input: the gateway then ends.
    const run = spawnSync('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} serve`, '/dev/null'], { cwd: dir, encoding: 'utf8', input: '', timeout: 60_000 });
    expect(run.stdout).toContain('waiting for an MCP client on stdin');
    const piped = cli(['serve'], dir);
    expect(piped.stderr).not.toContain('waiting for an MCP client');
  });
});
