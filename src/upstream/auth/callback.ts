import { createServer, type Server } from 'node:http';
import { outsideText } from '../../util/redact.js';

/** The loopback listener a sign-in's browser comes back to (RFC 8252 section 7.3). */
export interface Callback {
  /** `http://127.0.0.1:PORT/callback`. */
  readonly redirectUrl: string;
  /**
   * The callback's query once the browser brings one with `state` (a callback with another state
   * is refused and waited past: it is not this sign-in's). Rejects on the authorization server's
   * error, or after `timeoutMs`. Called before the browser is sent, so no callback comes too soon.
   */
  expect(state: string, timeoutMs: number): Promise<URLSearchParams>;
  /** Gives up waiting: the expected callback's promise rejects with `reason`. */
  cancel(reason: string): void;
  /**
   * Stops listening. A callback still expected is given up (its timer cleared), and one expected
   * later is refused at once: a sign-in that failed meanwhile must not open a browser, nor keep
   * the process waiting for one.
   */
  close(): Promise<void>;
}

const PAGE = (text: string) => `<!doctype html><meta charset="utf-8"><title>lazytools</title><p style="font:16px system-ui;margin:3em">${text}</p>`;

/** Listens on 127.0.0.1 (`port`, or a free one for 0) for the sign-in's redirect. */
export function listenForCallback(port: number): Promise<Callback> {
  let waiter: { state: string; resolve: (params: URLSearchParams) => void; reject: (error: Error) => void } | undefined;
  let closed = false;
  const server: Server = createServer((req, res) => {
    const answer = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(PAGE(text));
    };
    // Anything on this machine may connect: a request target URL cannot read ("http://[") is
    // answered, not thrown (a throw here ended the sign-in with a stack trace).
    const url = URL.canParse(req.url ?? '/', 'http://127.0.0.1') ? new URL(req.url ?? '/', 'http://127.0.0.1') : undefined;
    if (req.method !== 'GET' || url?.pathname !== '/callback') return answer(404, 'Not found.');
    const current = waiter;
    if (!current || url.searchParams.get('state') !== current.state) return answer(400, 'This sign-in link is not the one lazytools is waiting for (its state does not match). Start again with <code>lazytools auth</code>.');
    waiter = undefined;
    const error = url.searchParams.get('error');
    if (error !== null) {
      const description = url.searchParams.get('error_description');
      answer(400, 'Sign-in was not completed. You can close this tab.');
      current.reject(new Error(`the authorization server answered ${outsideText(error, 100)}${description ? `: ${outsideText(description, 300)}` : ''}`));
      return;
    }
    if (!url.searchParams.get('code')) return answer(400, 'The callback carries no authorization code.');
    answer(200, 'Signed in. You can close this tab and go back to the terminal.');
    current.resolve(url.searchParams);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new Error(`port ${port} of 127.0.0.1 is taken: the sign-in redirect needs it ("redirectPort" in the rc)`) : error),
    );
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const redirectUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}/callback`;
      resolve({
        redirectUrl,
        expect: (state, timeoutMs) => {
          if (closed) throw new Error('the sign-in ended before the browser was sent');
          const expected = new Promise<URLSearchParams>((resolveWait, rejectWait) => {
            const timer = setTimeout(() => {
              waiter = undefined;
              rejectWait(new Error(`no sign-in came back within ${Math.round(timeoutMs / 1000)} s`));
            }, timeoutMs);
            const done = <T>(settle: (value: T) => void) => (value: T) => {
              clearTimeout(timer);
              settle(value);
            };
            waiter = { state, resolve: done(resolveWait), reject: done(rejectWait) };
          });
          // Awaited later (after the SDK returns): a rejection meanwhile is not unhandled.
          expected.catch(() => {});
          return expected;
        },
        cancel: (reason) => {
          const current = waiter;
          waiter = undefined;
          current?.reject(new Error(reason));
        },
        close: () =>
          new Promise<void>((resolveClose) => {
            closed = true;
            const current = waiter;
            waiter = undefined;
            current?.reject(new Error('the sign-in ended'));
            server.closeAllConnections();
            server.close(() => resolveClose());
          }),
      });
    });
  });
}
