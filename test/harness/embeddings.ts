import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventCounter } from './events.js';

/**
 * An OpenAI-compatible `/v1/embeddings` endpoint on 127.0.0.1 with a toy model, for tests of rc
 * `discovery.embeddings`: a word's vector is its concept's dimension, and "zorbify" means what
 * "frobnicate" means (no word list of lazytools knows either). It records what it is asked,
 * answers 401 without the bearer key, and misbehaves on demand (`mode`).
 */
export interface ToyEmbeddings {
  /** Base URL (`http://127.0.0.1:PORT/v1`). */
  url: string;
  /** Every input embedded so far, in order. */
  inputs: string[];
  /** The Authorization header of every request. */
  authorizations: Array<string | undefined>;
  /** The path and query of every request. */
  paths: string[];
  /** Requests read to their end (hit before answering, or before hanging). */
  requests: EventCounter;
  /** `endless`: bytes of the endless answers written before their readers hung up, each recorded as it ends. */
  streamed: number[];
  /** Endless answers whose reader hung up. */
  hungUp: EventCounter;
  /** `huge`: the ok vectors times `scale` (finite doubles that overflow float32, or whose squares overflow). */
  /** `echo`: HTTP 500 whose body quotes the request's Authorization header 180 characters in. `echo-url`: HTTP 404 `Cannot POST <path and query>`, as Express answers. */
  /** `stall-body`: a 200 whose body stops after its first bytes. `endless`: a 200 whose JSON array never ends. `tiny-values`: 300,000 empty arrays (900 kB) in "data", whatever was asked. */
  mode: 'ok' | 'garbage' | 'hang' | 'stall-body' | 'huge' | 'echo' | 'echo-url' | 'many-values' | 'endless' | 'tiny-values';
  scale: number;
  /** The size of the vectors answered (default 64): another model behind the same name. */
  dims: number;
  close(): Promise<void>;
}

export const TOY_EMBEDDINGS_KEY = 'toy-secret-key-4711';
const CONCEPTS: Record<string, string> = { zorbify: 'frob', zorbifies: 'frob', frobnicate: 'frob', frobnicates: 'frob' };
const DIMS = 64;

function toyVector(text: string, dims = DIMS): number[] {
  const vector = new Array<number>(dims).fill(0);
  for (const word of text.toLowerCase().split(/[^a-z]+/)) {
    if (word.length < 3) continue;
    const concept = CONCEPTS[word] ?? word;
    let h = 0x811c9dc5;
    for (let i = 0; i < concept.length; i++) h = Math.imul(h ^ concept.charCodeAt(i), 0x01000193) >>> 0;
    vector[h % dims] = (vector[h % dims] ?? 0) + 1;
  }
  return vector;
}

/** Writes a number whose digits never end (`…"embedding":[0.1234…`) for as long as the reader takes it (at its pace), then records the bytes written. */
function endless(res: ServerResponse, state: { streamed: number[]; hungUp: EventCounter }): void {
  const chunk = Buffer.from('1234567890'.repeat(6_400));
  let written = 0;
  res.on('close', () => {
    state.streamed.push(written);
    state.hungUp.hit();
  });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"object":"list","data":[{"index":0,"embedding":[0.');
  const more = (): void => {
    while (!res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
  };
  more();
}

export async function toyEmbeddings(): Promise<ToyEmbeddings> {
  const hanging: ServerResponse[] = [];
  const state = {
    inputs: [] as string[],
    paths: [] as string[],
    authorizations: [] as Array<string | undefined>,
    requests: new EventCounter(),
    streamed: [] as number[],
    hungUp: new EventCounter(),
    mode: 'ok' as ToyEmbeddings['mode'],
    scale: 1e39,
    dims: DIMS,
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      state.authorizations.push(req.headers.authorization);
      state.paths.push(req.url ?? '');
      if (state.mode === 'echo-url') return void res.writeHead(404).end(`Cannot POST ${req.url ?? ''}`);
      if ((req.url ?? '').split('?')[0] !== '/v1/embeddings' || req.headers.authorization !== `Bearer ${TOY_EMBEDDINGS_KEY}`) return void res.writeHead(401).end('{"error":"unauthorized"}');
      const { input } = JSON.parse(body) as { input: string[] };
      state.inputs.push(...input);
      state.requests.hit();
      if (state.mode === 'hang') return void hanging.push(res);
      if (state.mode === 'stall-body') return void (res.writeHead(200, { 'content-type': 'application/json' }).write('{"object":"list","data":['), hanging.push(res));
      if (state.mode === 'endless') return endless(res, state);
      if (state.mode === 'tiny-values') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"object":"list","data":[${'[],'.repeat(300_000)}[]]}`);
      if (state.mode === 'echo') return void res.writeHead(500).end(`${'x'.repeat(180)} ${req.headers.authorization ?? ''}`);
      // Three million empty objects (9 MB, under the 32 MiB read bound): a parse of millions of values.
      if (state.mode === 'many-values') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"object":"list","data":[${'{},'.repeat(3_000_000)}{}]}`);
      const factor = state.mode === 'huge' ? state.scale : 1;
      const data = state.mode === 'garbage' ? [{ index: 0, embedding: ['x'] }] : input.map((item, index) => ({ object: 'embedding', index, embedding: toyVector(item, state.dims).map((x) => x * factor) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging.splice(0)) res.destroy();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return Object.assign(state, { url, close });
}
