import { spawn, type ChildProcess } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import type { HttpOptions } from '../../src/front/http.js';
import { serve, type ServeOptions, type Served } from '../../src/front/serve.js';
import { silentLogger } from '../../src/util/log.js';
import { FIXTURES } from './paths.js';

/**
 * The gateway of the rc file `config` over HTTP on 127.0.0.1, an ephemeral port, silent unless
 * `options.logger` says otherwise; `served.http!.url` is its endpoint, `served.close()` stops it.
 */
export function serveHttpGateway(config: string, options: Omit<ServeOptions, 'config' | 'http'> & { http?: HttpOptions } = {}): Promise<Served> {
  return serve({ config, logger: silentLogger, ...options, http: { port: 0, ...options.http } });
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
  const child = spawn(process.execPath, [FIXTURES.kitchenSink, '--http', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
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
