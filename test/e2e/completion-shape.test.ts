import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, cliStdio, FIXTURES, tempTree } from '../harness/index.js';

/**
 * An upstream's completion reaches the client in the shape the spec gives it (at most 100 string
 * values, an integer total, a boolean hasMore): the gateway relayed test/fixtures/hostile/
 * completion-server.mjs's answers as they came, and the client's SDK refused every one of them
 * ("Too big: expected array to have <=100 items"), so the user got an error instead of completions.
 */

const cleanups = cleanupAfterEach();

async function connected(): Promise<Client> {
  const dir = tempTree({ 'package.json': '{}' });
  writeFileSync(path.join(dir, '.lazytoolsrc.json'), JSON.stringify({ servers: { words: { command: process.execPath, args: [FIXTURES.completionServer] } } }));
  const client = new Client({ name: 'completion-shape', version: '1.0.0' });
  await client.connect(new StdioClientTransport(cliStdio(['serve'], { cwd: dir })));
  cleanups.push(() => client.close());
  return client;
}

describe('an upstream completion out of the spec shape', () => {
  it('reaches a 2025 client as its first 100 string values, hasMore set, no total it cannot hold', async () => {
    const client = await connected();
    const complete = (value: string) => client.complete({ ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'word', value } });
    const many = await complete('many');
    expect(many.completion.values).toEqual(Array.from({ length: 100 }, (_, i) => `many_${i}`));
    expect(many.completion.hasMore).toBe(true);
    expect(many.completion.total).toBeUndefined();
    const mixed = await complete('mixed');
    expect(mixed.completion).toEqual({ values: ['one', 'four'] });
    // A completion in shape is passed on as it came.
    expect((await complete('ok')).completion).toEqual({ values: ['ok_1', 'ok_2', 'ok_3'], total: 3, hasMore: false });
  });
});
