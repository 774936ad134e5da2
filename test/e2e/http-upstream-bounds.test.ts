import { type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { cliStdio, FIXTURES, httpFixture, rcProject, runCli, text } from '../harness/index.js';

/**
 * What one answer of a remote (Streamable HTTP) upstream may hold of the gateway: as much as one
 * stdio line (64 MiB). On the old main a JSON body or an SSE event was read whole however big:
 * a body that never ended took the gateway past 13 GB in a minute, and an 80 MiB event took
 * minutes of CPU (the stream watcher split the growing event on every chunk) before it passed.
 * (The SDK client here reads lines up to 10 MiB, so the event that passes is 5 MiB.)
 */

const TIMEOUT = 60_000;

describe('remote upstream answers', () => {
  let upstream: { child: ChildProcess; url: string };
  let client: Client;

  beforeAll(async () => {
    upstream = await httpFixture(FIXTURES.hostileHttp);
    // The call timeout is far above the test's: a call that waits for it fails the test.
    const project = rcProject({ servers: { evil: { url: upstream.url, oauth: false, timeout: 10 * TIMEOUT } }, defaultMode: 'all', strategy: 'notify' });
    client = new Client({ name: 'bounds-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport(cliStdio(['serve'], { cwd: project.dir, env: { LAZYTOOLS_CACHE_DIR: '' } })));
  });

  afterAll(async () => {
    await client?.close();
    upstream?.child.kill();
  });

  const call = (name: string, mib?: number) => client.callTool({ name, arguments: mib === undefined ? {} : { mib } }, undefined, { timeout: TIMEOUT });

  it('a JSON answer over 64 MiB fails the call saying so, and the server keeps serving', async () => {
    const result = await call('huge_json', 80);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('sent an answer over 64 MiB');
    // The upstream was reached: it said too much (the call failed as "could not reach upstream").
    expect(text(result)).not.toContain('could not reach');
    expect(text(await call('ok'))).toBe('fine');
  }, TIMEOUT);

  it('an SSE event over 64 MiB fails its call at once (the stream is cut), and one of 5 MiB passes whole', async () => {
    const result = await call('huge_event', 80);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('sent an event over 64 MiB');
    const whole = await call('huge_event', 5);
    expect(whole.isError).toBeFalsy();
    expect(text(whole).length).toBe(5 * 1024 * 1024);
    expect(text(await call('ok'))).toBe('fine');
  }, TIMEOUT);

  it('an answer stream that ends without a valid answer fails its call at once, not at the call timeout', async () => {
    for (const name of ['closed_stream', 'bad_event']) {
      const result = await call(name);
      expect(result.isError, name).toBe(true);
      expect(text(result)).toContain('ended its answer stream without a valid answer');
    }
    expect(text(await call('ok'))).toBe('fine');
  }, TIMEOUT);

  it('a JSON body that is no JSON-RPC message says so (it said "could not reach" and quoted the parser\'s issues)', async () => {
    for (const name of ['bad_json', 'not_json']) {
      const result = await call(name);
      expect(result.isError, name).toBe(true);
      expect(text(result)).toContain('upstream "evil" answered with a message that is not JSON-RPC');
      expect(text(result)).not.toContain('could not reach');
    }
  }, TIMEOUT);

  it('an answer of more JSON values than one message may hold fails its call before it is parsed, JSON body or SSE event', async () => {
    for (const [name, what] of [['many_values_json', 'an answer'], ['many_values_event', 'an event']]) {
      const result = await call(name as string);
      expect(result.isError, name).toBe(true);
      expect(text(result)).toContain(`sent ${what as string} of more than 2,000,000 JSON values`);
    }
    expect(text(await call('ok'))).toBe('fine');
  }, TIMEOUT);

  it('answers that never end fail their calls instead of filling memory', async () => {
    for (const name of ['endless_json', 'endless_event']) {
      const result = await call(name);
      expect(result.isError, name).toBe(true);
      expect(text(result)).toContain('over 64 MiB');
      expect(text(result)).not.toContain('could not reach');
    }
  }, TIMEOUT);
});

describe('a remote upstream that never answers', () => {
  let upstream: { child: ChildProcess; url: string };
  let client: Client;

  beforeAll(async () => {
    upstream = await httpFixture(FIXTURES.hostileHttp);
    const project = rcProject({ servers: { evil: { url: upstream.url, oauth: false, timeout: 500 } }, defaultMode: 'all', strategy: 'notify' });
    client = new Client({ name: 'bounds-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport(cliStdio(['serve'], { cwd: project.dir, env: { LAZYTOOLS_CACHE_DIR: '' } })));
  });

  afterAll(async () => {
    await client?.close();
    upstream?.child.kill();
  });

  // On the old main each timed-out call left its POST open (its socket, and the stream of one that
  // sent keep-alive comments) for as long as the gateway ran: 'unanswered_closed' never answered.
  it('a call that times out ends its request to the server (no headers, or a stream of keep-alives)', async () => {
    for (const name of ['silent', 'silent_stream', 'silent', 'silent_stream']) {
      const result = await client.callTool({ name, arguments: {} }, undefined, { timeout: TIMEOUT });
      expect(text(result), name).toContain('timed out after 500 ms');
    }
    // The server answers once none of those requests is still open (within the rc's 500 ms: the call would time out).
    const closed = await client.callTool({ name: 'unanswered_closed', arguments: {} }, undefined, { timeout: TIMEOUT });
    expect(text(closed)).toBe('none open');
  }, TIMEOUT);
});

describe('a remote upstream that ends its session', () => {
  let upstream: { child: ChildProcess; url: string };
  let client: Client;

  beforeAll(async () => {
    upstream = await httpFixture(FIXTURES.hostileHttp, ['--sessions']);
    const project = rcProject({ servers: { evil: { url: upstream.url, oauth: false } }, defaultMode: 'all', strategy: 'notify' });
    client = new Client({ name: 'bounds-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport(cliStdio(['serve'], { cwd: project.dir, env: { LAZYTOOLS_CACHE_DIR: '' } })));
  });

  afterAll(async () => {
    await client?.close();
    upstream?.child.kill();
  });

  // On the old main every call after the server forgot the session failed with its 404 until the gateway restarted.
  it('a 404 to a request of the session starts a new session with the next call', async () => {
    const call = (name: string) => client.callTool({ name, arguments: {} }, undefined, { timeout: TIMEOUT });
    expect(text(await call('ok'))).toBe('fine');
    expect(text(await call('forget_sessions'))).toBe('forgotten');
    expect((await call('ok')).isError).toBe(true);
    expect(text(await call('ok'))).toBe('fine');
    expect(text(await call('ok'))).toBe('fine');
  }, TIMEOUT);
});

describe('a remote upstream whose tools/list never answers', () => {
  let upstream: { child: ChildProcess; url: string };
  let client: Client;

  beforeAll(async () => {
    upstream = await httpFixture(FIXTURES.hostileHttp);
    // A relist waits the start timeout (3 s); a call may wait far longer than the test.
    const project = rcProject({ servers: { evil: { url: upstream.url, oauth: false, startTimeout: 3_000, timeout: 10 * TIMEOUT } }, defaultMode: 'all', strategy: 'notify' });
    client = new Client({ name: 'bounds-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport(cliStdio(['serve'], { cwd: project.dir, env: { LAZYTOOLS_CACHE_DIR: '' } })));
  });

  afterAll(async () => {
    await client?.close();
    upstream?.child.kill();
  });

  // The SDK's own requests (the relist a list_changed causes) timed out and left their POST open
  // for as long as the gateway ran, as the calls did before raw.ts ended theirs: 'unanswered_closed'
  // never answered, and the call waited for the test's timeout.
  it('a relist that times out ends its request to the server', async () => {
    expect(text(await client.callTool({ name: 'silent_lists', arguments: {} }, undefined, { timeout: TIMEOUT }))).toBe('lists silent');
    const closed = await client.callTool({ name: 'unanswered_closed', arguments: {} }, undefined, { timeout: TIMEOUT });
    expect(text(closed)).toBe('none open');
  }, 2 * TIMEOUT);
});

describe('a remote upstream that refuses with a hostile body', () => {
  let upstream: { child: ChildProcess; url: string };

  beforeAll(async () => {
    upstream = await httpFixture(FIXTURES.hostileHttp, ['--refuse']);
  });

  afterAll(() => {
    upstream?.child.kill();
  });

  it('reaches lazytools auth\'s terminal escaped and cut (it printed the 200 KB body raw)', () => {
    const project = rcProject({ servers: { evil: { url: upstream.url, transport: 'streamable-http' } } });
    const run = runCli(['auth', 'evil', '--no-browser', '--timeout', '5'], { cwd: project.dir, env: { LAZYTOOLS_CONFIG_DIR: path.join(project.dir, 'config'), LAZYTOOLS_CACHE_DIR: '' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('\\u001b[31mred\\u001b]0;title\\u0007 yyy');
    // eslint-disable-next-line no-control-regex -- no control character may reach the terminal
    expect(run.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(run.stderr.length).toBeLessThan(5_000);
  });
});
