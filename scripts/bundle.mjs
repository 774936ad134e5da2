// Bundles the CLI into one file: Node then resolves and loads one module instead of hundreds,
// which cuts `lazytools serve` cold start by about a third. The library (dist/index.js) stays
// unbundled. Packages loaded lazily or by computed paths stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli/bin.js'],
  outfile: 'dist/cli/lazytools.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['jiti', 'gpt-tokenizer', 'cosmiconfig'],
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __lazytoolsRequire } from 'node:module';\nconst require = __lazytoolsRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
});
