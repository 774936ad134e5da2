// The conformance suite's CLI entry for this Node. Both CLIs (`@modelcontextprotocol/conformance`
// and `conformance-next`) import `globSync` from "fs", which Node 20 lacks; the scenarios never call
// it. On such a Node this runs a copy of the CLI with that import replaced by a stub, written next
// to the original (so its dependencies resolve the same way); node_modules is not edited otherwise.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Path of a CLI entry that runs on this Node (a patched copy when `fs.globSync` is missing). */
export function conformanceCli(pkgName) {
  const require = createRequire(import.meta.url);
  const original = path.join(path.dirname(require.resolve(`${pkgName}/package.json`)), 'dist', 'index.js');
  if (typeof fs.globSync === 'function') return original;
  const source = fs.readFileSync(original, 'utf8');
  const patched = source.replace(/import\{([^}]*?)globSync as (\w+),([^}]*)\}from"fs";/, (_all, before, alias, after) => `import{${before}${after}}from"fs";const ${alias}=()=>[];`);
  if (patched === source && /globSync/.test(source)) throw new Error(`${pkgName}: the globSync import has an unexpected shape; update scripts/conformance-cli.mjs`);
  const copy = path.join(path.dirname(original), '.lazytools-node20.mjs');
  fs.writeFileSync(copy, patched);
  return copy;
}

