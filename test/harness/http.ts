import { spawn, type ChildProcess } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import type { HttpOptions } from '../../src/transports/http.js';
import { serve, type ServeOptions, type Served } from '../../src/app/serve.js';
import { silentLogger } from '../../src/util/log.js';
import { afterAll, beforeAll } from 'vitest';
import { FIXTURES } from './paths.js';

/** serve's options besides the rc file, with HTTP's (port 0 unless set). */
export type GatewayOptions = Omit<ServeOptions, 'config' | 'http'> & { http?: HttpOptions };

/**
 * The gateway of the rc file `config` over HTTP on 127.0.0.1, an ephemeral port, silent unless
 * `options.logger` says otherwise; `served.http!.url` is its endpoint, `served.close()` stops it.
 */
export function serveHttpGateway(config: string, options: GatewayOptions = {}): Promise<Served> {
  return serve({ config, logger: silentLogger, ...options, http: { port: 0, ...options.http } });
}

/** The HTTP gateway of one describe block (suiteGateway): read it inside tests and hooks. */
export interface SuiteGateway {
  /** The running gateway; throws outside the suite's tests (before its beforeAll ran). */
  readonly served: Served;
  /** Its endpoint, `served.http!.url`. */
  readonly url: string;
}

/**
 * serveHttpGateway for a whole describe block: started in a `beforeAll` (the rc file made then, by
 * `config`, so temporary folders exist only while the suite runs; `options` may be a function
 * for values other hooks set), closed in an `afterAll`. Call
 * it where the block's hooks go; hooks registered after it run after it starts and before it stops.
 */
export function suiteGateway(config: () => string, options: GatewayOptions | (() => GatewayOptions) = {}): SuiteGateway {
  let served: Served | undefined;
  beforeAll(async () => {
    served = await serveHttpGateway(config(), typeof options === 'function' ? options() : options);
  }, 60_000);
  afterAll(async () => {
    await served?.close();
  });
  return {
    get served() {
      if (!served) throw new Error('the suite gateway is not running: read it inside a test or hook of its describe block');
      return served;
    },
    get url() {
      return this.served.http!.url;
    },
  };
}

/** The Accept header a Streamable HTTP client sends. */
export const ACCEPT = 'application/json, text/event-stream';

/**
 * A raw POST (JSON body, Streamable HTTP's Accept) and its status and body, for what the SDK
 * clients never send. `target` is a URL, or a port and a request target sent verbatim (say, in
 * absolute form).
 */
export function rawPost(target: string | { port: number; path: string }, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const options = { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers } };
  return new Promise((resolve, reject) => {
    const answered = (res: IncomingMessage) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    };
    const req = typeof target === 'string' ? request(target, options, answered) : request({ host: '127.0.0.1', port: target.port, path: target.path, ...options }, answered);
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The kitchen-sink fixture as an HTTP upstream (`--http 0`): its child process and the URL it
 * prints once listening (`args` adds flags such as `--legacy-only`). The caller kills the child.
 */
export function kitchenSinkHttp(args: string[] = []): Promise<{ child: ChildProcess; url: string }> {
  return httpFixture(FIXTURES.kitchenSink, args);
}

/**
 * A fixture server that serves HTTP on 127.0.0.1 with `--http 0` and prints its URL (kitchen-sink,
 * servers/flood.mjs): its child process and that URL. The caller kills the child.
 */
export function httpFixture(entry: string, args: string[] = [], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [entry, '--http', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^(http:\S+)$/m.exec(out);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`fixture exited (${code}) before it served`)));
  });
}
