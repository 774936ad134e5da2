import { afterEach, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { clearSecrets, registerSecret } from '../../src/util/redact.js';
import { cleanupAfterEach, inMemoryClient, inProcessUpstream, namedToolsApp } from '../harness/index.js';

/**
 * A server's OAuth token is its authorization server's choice, any string. Redacted from every
 * server's messages, a token of `"text"` rewrote the type of every content block the gateway
 * relayed, and each call through it failed (fails on the old main). It is looked for in its own
 * server's messages and in logs only.
 */

const cleanups = cleanupAfterEach();
afterEach(() => clearSecrets());

describe('a server\'s own credential', () => {
  it('is not looked for in another server\'s messages', async () => {
    const gateway = new Gateway({ config: resolveConfig({ defaultMode: 'all' }), upstreams: [inProcessUpstream('good', namedToolsApp({ read_note: true })), inProcessUpstream('evil', namedToolsApp({ open_vault: true }))] });
    await gateway.start();
    cleanups.push(() => gateway.close());
    registerSecret('text', 'oauth:evil', 'evil');
    const client = await inMemoryClient((t) => gateway.createSession({}).connect(t), { name: 'secret-scope', cleanups });
    const result = await client.callTool({ name: 'read_note', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'read_note' }]);
  });
});
