import { spawn, type ChildProcess } from 'node:child_process';
import { request, type Agent, type IncomingMessage } from 'node:http';
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
 * A raw POST (JSON body, Streamable HTTP's Accept) and its status, headers and body, for what the
 * SDK clients never send. `target` is a URL, or a port and a request target sent verbatim (say, in
 * absolute form).
 */
export function rawPost(target: string | { port: number; path: string }, body: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  const options = { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers } };
  return new Promise((resolve, reject) => {
    const answered = (res: IncomingMessage) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    };
    const req = typeof target === 'string' ? request(target, options, answered) : request({ host: '127.0.0.1', port: target.port, path: target.path, ...options }, answered);
    req.on('error', reject);
    req.end(body);
  });
}

/** The `_meta` envelope of a raw 2026-07-28 request (`capabilities` are the client's). */
export function modernMeta(capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': capabilities };
}

/** A raw subscriptions/listen stream (rawListen): how it was answered and what it heard since. */
export interface RawListen {
  status: number;
  /** The first bytes of the answer (the acknowledgement, or the whole refusal). */
  first: string;
  /** Everything read from the stream so far. */
  text(): string;
  /** Resolves once the stream's text matches `pattern`. */
  heard(pattern: RegExp): Promise<void>;
  /** Resolves once the stream ended (closed by the server, or by close()). */
  ended: Promise<void>;
  isOpen(): boolean;
  close(): void;
}

/**
 * Opens a 2026-07-28 subscriptions/listen stream on `port` with a raw POST (`params` besides the
 * filter and `_meta`, `headers` added, `agent` to keep sockets apart); resolves once its first
 * bytes, or its whole refusal, arrived.
 */
export function rawListen(port: number, options: { id?: number | string; capabilities?: Record<string, unknown>; headers?: Record<string, string>; agent?: Agent } = {}): Promise<RawListen> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: options.id ?? 1, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: modernMeta(options.capabilities) } });
  const headers = { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen', ...options.headers };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers, agent: options.agent }, (res) => {
      let text = '';
      const waiters: Array<() => void> = [];
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        for (const wake of waiters.splice(0)) wake();
      });
      res.on('error', () => {});
      const ended = new Promise<void>((done) => res.once('close', () => done()));
      res.once('data', () =>
        resolve({
          status: res.statusCode ?? 0,
          first: text,
          text: () => text,
          heard: async (pattern) => {
            while (!pattern.test(text)) await new Promise<void>((wake) => waiters.push(wake));
          },
          ended,
          isOpen: () => !res.destroyed && !res.complete,
          close: () => req.destroy(),
        }),
      );
    });
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
