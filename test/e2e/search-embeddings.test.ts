import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, referenceRc, rcProject, tempTree, type CliRun } from '../harness/index.js';
import { TOY_EMBEDDINGS_KEY, toyEmbeddings, type ToyEmbeddings } from '../harness/embeddings.js';

/** The CLI as a process that does not block this one (the toy endpoint answers from here). */
function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `lock` and `search` with rc `discovery.embeddings`, against a toy endpoint on 127.0.0.1. */
describe('lazytools lock and search with an embeddings endpoint', () => {
  let toy: ToyEmbeddings;
  const env = { TOY_KEY: TOY_EMBEDDINGS_KEY, LAZYTOOLS_CACHE_DIR: tempTree({}) };
  beforeAll(async () => (toy = await toyEmbeddings()));
  afterAll(() => toy.close());
  // timeoutMs (default 1.5 s) bounds the CLI's query probe, its first request from a fresh process:
  // an upper bound only (a passing search never waits for it), wide for a loaded machine.
  const embeddings = () => ({ discovery: { embeddings: { url: toy.url, model: 'toy', apiKey: '${TOY_KEY}', weight: 0.5, timeoutMs: 30_000 } } });

  it('lock embeds every tool once; a second lock reads them from the cache', async () => {
    const { dir } = referenceRc(embeddings());
    const first = await cli(['lock'], dir, env);
    expect(first.code, first.stderr).toBe(0);
    const embedded = /embeddings for search: (\d+) tools embedded, 0 cached/.exec(first.stderr);
    expect(embedded, first.stderr).not.toBeNull();
    const again = await cli(['lock'], dir, env);
    expect(again.stderr).toContain(`embeddings for search: 0 tools embedded, ${embedded?.[1]} cached`);
    expect(first.stderr + again.stderr).not.toContain(TOY_EMBEDDINGS_KEY);
  }, 120_000);

  it('search finds a tool by meaning that no word of the query names, and by words alone without the endpoint', async () => {
    const catalog = path.join(tempTree({}), 'tools.json');
    const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' } });
    writeFileSync(catalog, JSON.stringify({ servers: { shop: { tools: [tool('frobnicate_widgets', 'Frobnicates the widgets'), tool('list_widgets', 'List widgets')] } } }));
    const { dir } = rcProject(embeddings());
    const found = await cli(['search', 'zorbify', '--catalog', catalog, '--json'], dir, env);
    expect(found.code, found.stderr).toBe(0);
    expect((JSON.parse(found.stdout) as Array<{ tool: string }>)[0]?.tool).toBe('frobnicate_widgets');
    // The endpoint is probed with the query before the fill, and that vector is the one searched with.
    expect(toy.inputs.filter((input) => input === 'zorbify')).toHaveLength(1);
    const plain = rcProject({});
    expect((await cli(['search', 'zorbify', '--catalog', catalog], plain.dir, env)).stdout).toContain('no tools match');
  });

  it('search answers by words after timeoutMs, with one warning, when the endpoint never answers (not after a fill\'s batch timeout)', async () => {
    const catalog = path.join(tempTree({}), 'tools.json');
    writeFileSync(catalog, JSON.stringify({ servers: { shop: { tools: [{ name: 'list_parcels', description: 'List parcels', inputSchema: { type: 'object' } }] } } }));
    const { dir } = rcProject({ discovery: { embeddings: { url: toy.url, model: 'toy', apiKey: '${TOY_KEY}', timeoutMs: 300 } } });
    toy.mode = 'hang';
    try {
      const found = await cli(['search', 'parcels', '--catalog', catalog], dir, { ...env, LAZYTOOLS_CACHE_DIR: tempTree({}) });
      expect(found.code, found.stderr).toBe(0);
      expect(found.stdout).toContain('list_parcels');
      expect(found.stderr.match(/discovery\.embeddings: .*no answer within 300 ms; search uses words only/g), found.stderr).toHaveLength(1);
    } finally {
      toy.mode = 'ok';
    }
  }, 120_000);
});
