import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenForCallback } from '../../src/upstream/auth/callback.js';
import { safeToOpen } from '../../src/upstream/auth/opener.js';

// The loopback redirect a sign-in comes back to (a real listener on 127.0.0.1). The SDK does not
// check `state`: this listener does, so a callback forged or left over from another sign-in
// (another state) cannot hand lazytools its code.

describe('sign-in callback', () => {
  it('takes only the callback with the state it expects; another state is refused and waited past', async () => {
    const callback = await listenForCallback(0);
    try {
      expect(callback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const expected = callback.expect('state-1', 10_000);
      const forged = await fetch(`${callback.redirectUrl}?code=evil&state=other`);
      expect(forged.status).toBe(400);
      expect(await forged.text()).toContain('its state does not match');
      const good = await fetch(`${callback.redirectUrl}?code=good&state=state-1&iss=https%3A%2F%2Fas.example.test`);
      expect(good.status).toBe(200);
      const params = await expected;
      expect(params.get('code')).toBe('good');
      expect(params.get('iss')).toBe('https://as.example.test');
      // Answered once: the same callback again is not taken.
      expect((await fetch(`${callback.redirectUrl}?code=good&state=state-1`)).status).toBe(400);
    } finally {
      await callback.close();
    }
  });

  it('reports the authorization server\'s error, and gives up after its timeout', async () => {
    const callback = await listenForCallback(0);
    try {
      const denied = callback.expect('s', 10_000);
      await fetch(`${callback.redirectUrl}?error=access_denied&error_description=${encodeURIComponent('The user said no')}&state=s`);
      await expect(denied).rejects.toThrow('the authorization server answered access_denied: The user said no');
      await expect(callback.expect('t', 20)).rejects.toThrow('no sign-in came back within 0 s');
    } finally {
      await callback.close();
    }
  });

  it('closed, gives up the callback it waited for and expects no other (no browser sent after a failed sign-in)', async () => {
    // A sign-in that failed while the SDK was still on its way to the browser step left a
    // 5-minute timer waiting on a closed listener, and sent the browser anyway.
    const callback = await listenForCallback(0);
    const waiting = callback.expect('s', 300_000);
    await callback.close();
    await expect(waiting).rejects.toThrow('the sign-in ended');
    expect(() => callback.expect('t', 300_000)).toThrow('the sign-in ended before the browser was sent');
  });

  it('answers a request whose target is no URL with 404 and still takes the sign-in', async () => {
    const callback = await listenForCallback(0);
    try {
      const expected = callback.expect('s', 10_000);
      const answer = await new Promise<string>((resolve, reject) => {
        let text = '';
        const socket = connect(Number(new URL(callback.redirectUrl).port), '127.0.0.1', () => socket.write('GET http://[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
      expect((await fetch(`${callback.redirectUrl}?code=good&state=s`)).status).toBe(200);
      expect((await expected).get('code')).toBe('good');
    } finally {
      await callback.close();
    }
  });

  it('sends a browser only to https, or http on this machine', () => {
    expect(safeToOpen(new URL('https://auth.example.test/authorize?x=1'))).toBe(true);
    expect(safeToOpen(new URL('http://127.0.0.1:8080/authorize'))).toBe(true);
    expect(safeToOpen(new URL('http://localhost/authorize'))).toBe(true);
    for (const url of ['http://auth.example.test/authorize', 'file:///etc/passwd', 'javascript:alert(1)', 'x-custom://open'])
      expect(safeToOpen(new URL(url)), url).toBe(false);
  });
});
