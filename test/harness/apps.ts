import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { Gateway } from '../../src/app/gateway.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { boundaryOf } from '../../src/focus/scope.js';
import { Upstream } from '../../src/upstream/upstream.js';
import { silentLogger } from '../../src/util/log.js';
import type { Cleanups } from './clients.js';

/**
 * A small in-process v2 server with argument-less tools, each answering its own name: `tools`
 * maps a tool name to whether it is read-only (`readOnlyHint`). For curate() and Gateway tests of
 * groups, modes, policy and routing, where what the tools do does not matter; `logging` declares
 * the logging capability (for tests of who hears its log lines).
 */
export function namedToolsApp(tools: Readonly<Record<string, boolean>>, options: { logging?: boolean } = {}): McpServer {
  const server = new McpServer({ name: 'app', version: '1.0.0' }, options.logging ? { capabilities: { logging: {} } } : undefined);
  for (const [name, readOnly] of Object.entries(tools))
    server.registerTool(name, { description: `${name.replace('_', ' ')}.`, inputSchema: z.object({}), annotations: { readOnlyHint: readOnly } }, () => ({ content: [{ type: 'text', text: name }] }));
  return server;
}

/**
 * An upstream named `name` whose server runs in this process (a namedToolsApp, say), for Gateway
 * tests that call tools: connected once, over an in-memory transport, logging nothing.
 */
export function inProcessUpstream(name: string, server: McpServer): Upstream {
  return new Upstream(name, {
    connect: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void server.connect(serverSide);
      return clientSide;
    },
    logger: silentLogger,
  });
}

/**
 * A gateway over two in-process servers, `notes` and `vault`, each the only server of its mode:
 * a bearer token of mode `notes` (notesToken) may never reach `vault`. For tests of what crosses
 * a token's boundary; started, and closed after the test.
 */
export async function notesAndVaultGateway(notes: McpServer, vault: McpServer, cleanups: Cleanups): Promise<Gateway> {
  const config = resolveConfig({
    groups: { notes: { servers: ['notes'] }, vault: { servers: ['vault'] } },
    modes: { notes: { groups: ['notes'] }, vault: { groups: ['vault'] } },
    defaultMode: 'notes',
    strategy: 'hybrid',
  });
  const gateway = new Gateway({ config, upstreams: [inProcessUpstream('notes', notes), inProcessUpstream('vault', vault)] });
  await gateway.start();
  cleanups.push(() => gateway.close());
  return gateway;
}

/** The boundary of a bearer token of mode `notes` (see notesAndVaultGateway). */
export const notesToken = () => boundaryOf({ tokenModes: ['notes'], tokenLabel: 'ci' });
