import { createHash } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { EventCounter, FIXTURES, rcProject, suiteGateway } from '../harness/index.js';

/**
 * A 2026-07-28 listen stream of a bearer token hears tools/list_changed only when the list that
 * token sees changed. Two teams, one upstream each: when team B's server changes its tools, team
 * B's stream hears it and team A's (whose token cannot reach that server) does not. Before, the
 * gateway decided once for all (handlers/list-changes watchListChanges) and every stream heard
 * it: a leak of another team's servers.
 */

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('list_changed on a token-bounded listen stream', () => {
  const suite = suiteGateway(() =>
    rcProject({
      servers: {
        alpha: { command: process.execPath, args: [FIXTURES.kitchenSink, '--name', 'alpha'] },
        beta: { command: process.execPath, args: [FIXTURES.kitchenSink, '--name', 'beta', '--growing-tools'] },
      },
      groups: { a: { servers: ['alpha'] }, b: { servers: ['beta'] } },
      modes: { teamA: { description: 'Team A', groups: ['a'] }, teamB: { description: 'Team B', groups: ['b'] } },
      defaultMode: 'teamA',
      auth: { tokens: { a: { sha256: sha256('team-a-token'), modes: ['teamA'] }, b: { sha256: sha256('team-b-token'), modes: ['teamB'] } } },
    }).file,
  );

  async function listening(token: string) {
    const client = new Client({ name: `listen-${token}`, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(suite.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const tools = new EventCounter();
    const prompts = new EventCounter();
    client.setNotificationHandler('notifications/tools/list_changed', tools.hit);
    client.setNotificationHandler('notifications/prompts/list_changed', prompts.hit);
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    return { client, tools, prompts, subscription, names };
  }

  it("a server the token cannot reach changing its tools is not announced to it; the token that sees it hears it", { timeout: 60_000 }, async () => {
    const teamA = await listening('team-a-token');
    const teamB = await listening('team-b-token');
    const trigger = teamB.names.find((name) => name.endsWith('test_trigger_tool_change'));
    const addPrompt = teamA.names.find((name) => name.endsWith('test_add_prompt'));
    expect(trigger).toBeDefined();
    expect(addPrompt).toBeDefined();
    expect(teamA.names.some((name) => name.includes('grown'))).toBe(false);
    expect((await teamB.client.callTool({ name: trigger!, arguments: {} })).isError).toBeFalsy();
    await teamB.tools.reached(1);
    expect((await teamB.client.listTools()).tools.map((tool) => tool.name).some((name) => name.includes('test_grown_'))).toBe(true);
    // Barrier on team A's own stream: a prompt change announced after the tools change reaches it
    // after what the tools change sent it, if anything.
    expect((await teamA.client.callTool({ name: addPrompt!, arguments: { name: 'barrier' } })).isError).toBeFalsy();
    await teamA.prompts.reached(1);
    expect(teamA.tools.count).toBe(0);
    for (const team of [teamA, teamB]) {
      await team.subscription.close();
      await team.client.close();
    }
  });
});
