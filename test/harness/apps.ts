import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { Upstream } from '../../src/upstream/upstream.js';
import { silentLogger } from '../../src/util/log.js';

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
