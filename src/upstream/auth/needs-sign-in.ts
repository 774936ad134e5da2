import { outsideText } from '../../util/redact.js';

/**
 * A remote server that cannot be used until someone signs in (`lazytools auth <server>`): no
 * stored sign-in, one that can no longer be refreshed, or a server asking for more access (scope)
 * than the sign-in holds. The gateway reports it (start failures, /readyz, focus_mode's status,
 * a call's `isError`) and serves the other servers; nothing here ever opens a browser.
 */
export class NeedsSignIn extends Error {
  override readonly name = 'NeedsSignIn';
  constructor(
    readonly server: string,
    /** The scope a step-up asked for, when that is why. */
    readonly scope?: string,
  ) {
    super(signInMessage(server, scope));
  }
}

/** "server "X" needs sign-in: run lazytools auth X" (with the scope a step-up asked for). */
export function signInMessage(server: string, scope?: string): string {
  // The scope is the server's (WWW-Authenticate): outside text, control characters escaped.
  const more = scope ? ` with more access (scope "${outsideText(scope, 300)}")` : '';
  return `server "${server}" needs sign-in${more}: run lazytools auth ${server}`;
}

/**
 * True for a NeedsSignIn, also once a transport wrapped it in an error of its own (the SSE
 * transport keeps only the message of what its stream's fetch threw).
 */
export function isNeedsSignIn(error: unknown): boolean {
  return error instanceof NeedsSignIn || /needs sign-in(?: with more access \(scope "[^"]*"\))?: run lazytools auth /.test(String((error as Error | undefined)?.message ?? ''));
}
