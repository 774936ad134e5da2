// Fairness: one session sends eight costly search_tools calls at once (ten 4 KB tasks each over
// 10,000 generated tools); how long does another session's plain search wait? Each round starts
// the batch, then times the other search; the batch's own time is reported beside it. In process
// (SDK client, in-memory transport), so the figure is the gateway's scheduling, not the network.
// Run alone: node bench/fairness.mjs
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Gateway } from '../dist/app/gateway.js';
import { resolveConfig } from '../dist/config/resolve.js';
import { generateCatalog } from './generate.mjs';
import { summary } from './lib.mjs';

/** Words of the generated catalog, so each step of each task matches many tools. */
const WORDS = 'github repository issue pull request list variant specific update existing search details review create from alerts comment write organization delete branch file commit workflow notification label milestone release discussion security'.split(' ');
const task = (j) =>
  Array.from({ length: 9 }, (_, i) => Array.from({ length: 40 }, (_, k) => WORDS[(i * 5 + j + k) % WORDS.length]).join(' '))
    .join(', then ')
    .slice(0, 4096);

export async function fairness({ rounds = 7, batch = 8, tools = 10_000 } = {}) {
  const catalog = generateCatalog(tools);
  const locked = Object.entries(catalog.servers).map(([server, entry]) => ({ server, tools: entry.tools }));
  const gateway = new Gateway({ config: resolveConfig({ strategy: 'proxy' }), upstreams: [], locked });
  const connect = async (name) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.createSession().connect(serverSide);
    const client = new Client({ name, version: '1' });
    await client.connect(clientSide);
    return client;
  };
  const costly = await connect('costly');
  const other = await connect('other');
  const queries = Array.from({ length: 10 }, (_, j) => task(j));
  const plain = () => other.callTool({ name: 'search_tools', arguments: { query: 'list the issues of a repository' } });
  await plain();
  const alone = [];
  const waited = [];
  const batches = [];
  for (let round = 0; round < rounds; round++) {
    let started = performance.now();
    await plain();
    alone.push(performance.now() - started);
    started = performance.now();
    const sent = Array.from({ length: batch }, () => costly.callTool({ name: 'search_tools', arguments: { queries, limit: 50 } }));
    await new Promise((resolve) => setImmediate(resolve));
    const asked = performance.now();
    await plain();
    waited.push(performance.now() - asked);
    await Promise.all(sent);
    batches.push(performance.now() - started);
  }
  await costly.close();
  await other.close();
  await gateway.close();
  return { tools, batch, alone: summary(alone), beside: summary(waited), batchMs: summary(batches) };
}

/**
 * The same wait when the costly searches come from many sessions of one bearer token (each
 * session sends `perSession` of them): how long does another token's plain search wait? Turns
 * go by token, so it should wait about as long as beside one session.
 */
export async function tokenFairness({ rounds = 5, sessions = 40, perSession = 2, tools = 10_000 } = {}) {
  const catalog = generateCatalog(tools);
  const locked = Object.entries(catalog.servers).map(([server, entry]) => ({ server, tools: entry.tools }));
  const gateway = new Gateway({ config: resolveConfig({ strategy: 'proxy' }), upstreams: [], locked });
  const connect = async (label) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gateway.createSession({ boundary: { modes: ['all'], token: true, label } }).connect(serverSide);
    const client = new Client({ name: label, version: '1' });
    await client.connect(clientSide);
    return client;
  };
  const costly = [];
  for (let i = 0; i < sessions; i++) costly.push(await connect('flood'));
  const other = await connect('other');
  const queries = Array.from({ length: 10 }, (_, j) => task(j));
  const plain = () => other.callTool({ name: 'search_tools', arguments: { query: 'list the issues of a repository' } });
  await plain();
  const waited = [];
  for (let round = 0; round < rounds; round++) {
    const sent = costly.flatMap((client) => Array.from({ length: perSession }, () => client.callTool({ name: 'search_tools', arguments: { queries, limit: 50 } })));
    await new Promise((resolve) => setImmediate(resolve));
    const asked = performance.now();
    await plain();
    waited.push(performance.now() - asked);
    await Promise.all(sent);
  }
  for (const client of [...costly, other]) await client.close();
  await gateway.close();
  return { tools, sessions, perSession, beside: summary(waited) };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify({ ...(await fairness()), token: await tokenFairness() }, null, 2));
