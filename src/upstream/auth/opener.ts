import { spawn } from 'node:child_process';

/**
 * Opens a URL for the person signing in; resolves false when no browser could be started.
 * `failed` hears a `LAZYTOOLS_BROWSER` command that ended in failure (so nobody waits for it).
 */
export type Opener = (url: URL, failed?: (why: string) => void) => Promise<boolean>;

/**
 * The browser to send a sign-in to: `LAZYTOOLS_BROWSER` (a command, split on spaces, that gets
 * the URL as its last argument; `none` opens nothing), else the desktop's (`open` on macOS,
 * `rundll32 url.dll,FileProtocolHandler` on Windows, `xdg-open` where a display is set). Never
 * through a shell: the URL comes from the authorization server's metadata, and a shell would run
 * what it smuggled in. Where nothing opens, the caller prints the URL.
 */
export function browserOpener(env: NodeJS.ProcessEnv = process.env): Opener {
  const own = env.LAZYTOOLS_BROWSER?.trim();
  if (own === 'none') return () => Promise.resolve(false);
  const command = own ? own.split(/\s+/) : desktopOpener(env);
  if (!command) return () => Promise.resolve(false);
  const [program, ...args] = command as [string, ...string[]];
  return (url, failed) =>
    new Promise((resolve) => {
      const child = spawn(program, [...args, url.href], { stdio: ['ignore', 'ignore', own ? 'inherit' : 'ignore'], detached: !own, shell: false, env });
      child.once('error', () => resolve(false));
      if (own) child.once('exit', (code, signal) => (code === 0 ? undefined : failed?.(`LAZYTOOLS_BROWSER (${program}) ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`)));
      child.once('spawn', () => {
        if (!own) child.unref();
        resolve(true);
      });
    });
}

function desktopOpener(env: NodeJS.ProcessEnv): string[] | undefined {
  if (process.platform === 'darwin') return ['open'];
  if (process.platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler'];
  return env.DISPLAY || env.WAYLAND_DISPLAY ? ['xdg-open'] : undefined;
}

/**
 * True for a URL a browser may be sent to: https, or http to this machine (a local authorization
 * server). Anything else (`file:`, `javascript:`, a custom scheme) in the server's metadata is refused.
 */
export function safeToOpen(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]');
}
