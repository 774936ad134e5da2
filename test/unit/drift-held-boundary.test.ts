import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { boundaryOf } from '../../src/focus/scope.js';
import { silentLogger } from '../../src/util/log.js';
import { cleanupAfterEach, inMemoryClient, inProcessUpstream, namedToolsApp, text } from '../harness/index.js';

/**
 * With rc `pin: true`, a tool the lock lacks is held back and a call names why ("server "x" is
 * not in the lock..."). Tools outside a bearer token's modes do not exist for it, and refusals
 * name nothing else: a held-back tool is in no mode yet, so a token's call of it answered with its
 * server's name and the lock's state while any other name outside its modes was "Unknown tool"
 * (fails on the old main). Without a token the reason is still told.
 */

const cleanups = cleanupAfterEach();

describe('drift-held tools and a bearer token', () => {
  it('a token\'s call of a held-back tool is "Unknown tool", naming no server; without a token it says why', async () => {
    const config = resolveConfig({
      pin: true,
      groups: { notes: { servers: ['notes'] } },
      modes: { notes: { groups: ['notes'] } },
      defaultMode: 'notes',
      strategy: 'hybrid',
    });
    const locked = [{ server: 'notes', tools: [{ name: 'read_note', inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } }] }];
    // notes is locked (its live definition differs: held back too), vault is not in the lock at all.
    const gateway = new Gateway({ config, upstreams: [inProcessUpstream('notes', namedToolsApp({ read_note: true })), inProcessUpstream('vault', namedToolsApp({ open_vault: false }))], locked, logger: silentLogger });
    await gateway.start();
    cleanups.push(() => gateway.close());
    const call = async (boundary: ReturnType<typeof boundaryOf> | undefined, name: string) => {
      const client = await inMemoryClient((t) => gateway.createSession(boundary ? { boundary } : {}).connect(t), { name: 'drift-held', cleanups });
      return (await client.callTool({ name: 'execute_tool', arguments: { name } })) as CallToolResult;
    };
    const token = boundaryOf({ tokenModes: ['notes'], tokenLabel: 'ci' });
    for (const name of ['open_vault', 'vault:open_vault', 'read_note']) {
      const bounded = await call(token, name);
      expect(bounded.isError).toBe(true);
      expect(text(bounded)).toContain(`Unknown tool "${name}"`);
      expect(text(bounded)).not.toMatch(/server|lock|held/);
      const open = await call(undefined, name);
      expect(text(open)).toMatch(/held back: .*lock/);
    }
  });
});
