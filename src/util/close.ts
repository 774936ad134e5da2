/** Anything with the SDK's single `onclose` slot: transports, front sessions. */
export interface Closable {
  onclose?: (() => void) | undefined;
}

/**
 * Adds a close listener without dropping the one already in the slot (the SDK installs its own
 * when it connects a transport): the earlier listener runs first.
 */
export function addCloseListener(target: Closable, listener: () => void): void {
  const previous = target.onclose;
  target.onclose = () => {
    previous?.();
    listener();
  };
}
