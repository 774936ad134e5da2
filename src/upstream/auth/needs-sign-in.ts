import { outsideText } from '../../util/redact.js';
import { quotedName, shownName } from '../../config/secrets.js';

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

/** Characters of a scope any message prints. */
const MAX_SCOPE = 300;

/** A scope as lazytools prints it: the servers' words (token answers, WWW-Authenticate), bounded, control characters escaped. */
export function scopeText(scope: string): string {
  return outsideText(scope, MAX_SCOPE);
}

/** "server "X" needs sign-in: run lazytools auth X" (with the scope a step-up asked for). */
export function signInMessage(server: string, scope?: string): string {
  const more = scope ? ` with more access (scope "${scopeText(scope)}")` : '';
  return `server ${quotedName(server)} needs sign-in${more}: run lazytools auth ${shownName(server)}`;
}

/**
 * True for a NeedsSignIn, also once a transport wrapped it in an error of its own (the SSE
 * transport keeps only the message of what its stream's fetch threw).
 */
export function isNeedsSignIn(error: unknown): boolean {
  return error instanceof NeedsSignIn || /needs sign-in(?: with more access \(scope "[^"]*"\))?: run lazytools auth /.test(String((error as Error | undefined)?.message ?? ''));
}
