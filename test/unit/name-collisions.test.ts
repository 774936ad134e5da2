import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Gateway } from '../../src/app/gateway.js';
import { main } from '../../src/cli/main.js';
import { buildCatalog } from '../../src/catalog/catalog.js';
import { exposedPrompts } from '../../src/catalog/prompt-names.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { openProject } from '../../src/project.js';
import type { Logger } from '../../src/util/log.js';
import { cleanupAfterEach, inMemoryClient, inProcessUpstream, namedToolsApp, rcProject } from '../harness/index.js';

/**
 * Server "a"'s "b_c" and server "a_b"'s "c" both end at a_b_c once prefixed: the longer server's
 * keeps the name (catalog/names.ts, prompt-names.ts: its prefix is the real one), the other is
 * left out. A prompt left out so was dropped without a word, and a tool's warning said only
 * "another tool's name or id". Each now names the entry left out and the one that kept the name,
 * on stderr as the gateway builds its lists (once, not on every rebuild) and in `status` and
 * `check` (openProject's warnings).
 */

const cleanups = cleanupAfterEach();
const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });
const TOOL_LINE = 'tool "a:b_c" left out: its exposed name "a_b_c" reads like server "a_b"\'s tool "a_b:c"; rename server "a" in the rc to list it';
const PROMPT_LINE = 'prompt "a:b_c" left out: its exposed name "a_b_c" reads like server "a_b"\'s prompt "a_b:c"; rename server "a" in the rc to list it';

describe('a name two entries end at', () => {
  it('a tool left out names the tool that kept the name, or whose id it is', () => {
    const { catalog, leftOut } = buildCatalog([{ server: 'a', tools: [tool('b_c')] }, { server: 'a_b', tools: [tool('c')] }], resolveConfig({ prefix: 'always' }));
    expect(catalog.tools.map((t) => t.id)).toEqual(['a_b:c']);
    expect(leftOut).toEqual([TOOL_LINE]);
    // A tool listed twice by its server: the first is kept, the repeat named.
    expect(buildCatalog([{ server: 'a', tools: [tool('x'), tool('x')] }], resolveConfig({})).leftOut).toEqual(['tool "a:x" is listed twice by its server: the first definition is kept']);
    // A token-shaped server name is described, as in the prompts' lines (it was printed as written).
    const token = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const [line] = buildCatalog([{ server: token, tools: [tool('x'), tool('x')] }], resolveConfig({})).leftOut;
    expect(line).toMatch(/^tool "<a 40-character name that looks like a secret, not shown>:x" is listed twice/);
  });

  it('a prompt left out names the prompt that kept the name; a repeat of one server is said as such; names are cut', () => {
    const servers = [
      { name: 'a', prompts: [{ name: 'b_c' }] },
      { name: 'a_b', prompts: [{ name: 'c' }] },
    ];
    const { list, byName, leftOut } = exposedPrompts(servers, 'always');
    expect(list.map((prompt) => prompt.name)).toEqual(['a_b_c']);
    expect(byName.get('a_b_c')).toEqual({ server: 'a_b', name: 'c' });
    expect(leftOut).toEqual([PROMPT_LINE]);
    expect(exposedPrompts([{ name: 'a', prompts: [{ name: 'x' }, { name: 'x' }] }], 'auto').leftOut).toEqual(['prompt "a:x" left out: its server lists it twice; the first is kept']);
    // Only what collides is said; a long name is cut (echoName), a token-shaped server described.
    expect(exposedPrompts([{ name: 'a', prompts: [{ name: 'x' }] }, { name: 'b', prompts: [{ name: 'x' }] }], 'auto').leftOut).toEqual([]);
    const token = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    const long = 'p'.repeat(5_000);
    const [line] = exposedPrompts([{ name: token, prompts: [{ name: long }, { name: long }] }], 'auto').leftOut;
    expect(line).not.toContain(token);
    expect(line!.length).toBeLessThan(400);
  });

  it('the gateway says each on stderr once, as its lists are built, and serves the one that kept the name', async () => {
    const a = namedToolsApp({ b_c: true });
    a.registerPrompt('b_c', { description: 'Prompt b_c of a.' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'from a' } }] }));
    const ab = namedToolsApp({ c: true });
    ab.registerPrompt('c', { description: 'Prompt c of a_b.' }, () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'from a_b' } }] }));
    const warned: string[] = [];
    const logger: Logger = { info: () => {}, error: () => {}, warn: (line) => warned.push(line) };
    const config = resolveConfig({ prefix: 'always', groups: { both: { servers: ['a', 'a_b'] } }, modes: { work: { groups: ['both'] } }, defaultMode: 'work', strategy: 'hybrid' });
    const gateway = new Gateway({ config, upstreams: [inProcessUpstream('a', a), inProcessUpstream('a_b', ab)], logger });
    await gateway.start();
    cleanups.push(() => gateway.close());
    const client = await inMemoryClient((t) => gateway.createSession().connect(t), { name: 'collisions', cleanups });
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['a_b_c']);
    expect(await client.getPrompt({ name: 'a_b_c' })).toMatchObject({ messages: [{ content: { text: 'from a_b' } }] });
    gateway.rebuild();
    gateway.prompts();
    expect(warned.filter((line) => line === TOOL_LINE)).toHaveLength(1);
    expect(warned.filter((line) => line === PROMPT_LINE)).toHaveLength(1);
  });

  it('status and check warn of both, from the prompts and tools a lock holds, in rc order', async () => {
    const { dir, file } = rcProject({ prefix: 'always', servers: { a: { command: 'a' }, a_b: { command: 'a_b' } } });
    const lock = path.join(dir, 'catalog.json');
    // Listed in the other order: the longer server keeps the name whatever the order, as in the gateway.
    writeFileSync(lock, JSON.stringify({ servers: { a_b: { tools: [tool('c')], prompts: [{ name: 'c' }] }, a: { tools: [tool('b_c')], prompts: [{ name: 'b_c' }] } } }));
    const project = await openProject({ config: file, catalogs: [lock], cwd: dir });
    expect(project.warnings).toContain(TOOL_LINE);
    expect(project.warnings).toContain(PROMPT_LINE);
    // groups says them too (on stderr: --json output stays one JSON document).
    const err: string[] = [];
    const out: string[] = [];
    expect(await main(['groups', '--json', '--config', file, '--catalog', lock], { out: (text: string) => void out.push(text), err: (text: string) => void err.push(text), cwd: dir, env: {} })).toBe(0);
    expect(err.join('\n')).toContain(TOOL_LINE);
    expect(() => JSON.parse(out.join(''))).not.toThrow();
  });
});
