// Bundles the CLI: Node then resolves and loads a few modules instead of hundreds, which cuts
// `lazytools serve` cold start by about a third. Code behind a dynamic import() (each command, the
// HTTP front) goes to chunks of its own (dist/cli/chunks/), so a stdio gateway neither compiles the
// HTTP server nor loads node:http and node:http2. The library (dist/index.js) stays unbundled.
// Packages loaded lazily or by computed paths stay external.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * zod's `z.locales` namespace re-exports every locale (about 400 KB, a fifth of the bundle),
 * which esbuild cannot drop because the namespace object is built whole. lazytools only uses the
 * default English messages (zod loads `en` itself), so the bundle keeps `en` and replaces every
 * other locale with a function that says it is not bundled: less to parse and run on every start.
 */
const englishOnlyZodLocales = {
  name: 'english-only-zod-locales',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => {
      const names = [...readFileSync(args.path, 'utf8').matchAll(/export \{ default as (\w+) \}/g)].map((m) => m[1]);
      const others = names.filter((name) => name !== 'en');
      const stubs = others.map((name) => `export const ${name} = () => { throw new Error('zod locale "${name}" is not bundled in the lazytools CLI'); };`);
      return { contents: [`export { default as en } from './en.js';`, ...stubs].join('\n'), loader: 'js' };
    });
  },
};

// Chunk names carry a content hash: drop the previous build's.
rmSync('dist/cli/chunks', { recursive: true, force: true });
/**
 * cosmiconfig (and parse-json, js-yaml... which it requires on first use) is bundled: loading its
 * two dozen CommonJS files one by one cost a gateway about 10 ms of start-up. Two packages it
 * requires only for some config files stay outside: import-fresh (CommonJS `.js` configs that
 * import() cannot load; it finds its caller through the module cache) and typescript (cosmiconfig's
 * own `.ts` loader). They are required from cosmiconfig's installed folder, as cosmiconfig itself
 * would, so strict layouts (pnpm) that do not hoist them still find them.
 */
const cosmiconfigOwnRequires = {
  name: 'cosmiconfig-own-requires',
  setup(build) {
    build.onResolve({ filter: /^(import-fresh|typescript)$/ }, (args) =>
      /[\\/]cosmiconfig[\\/]/.test(args.importer) ? { path: args.path, namespace: 'cosmiconfig-own-require' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'cosmiconfig-own-require' }, (args) => ({
      contents: `const { createRequire } = require('node:module');\nmodule.exports = createRequire(require.resolve('cosmiconfig'))(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/**
 * The placement code's digest (src/catalog/placement-code.ts), fixed in the bundle so a start does
 * not read the sources: verified-lock stamps and cached placements miss once that code changes.
 */
const { PLACEMENT_MODULES, codeDigest } = await import('../dist/catalog/placement-code.js');
const placementCode = codeDigest(PLACEMENT_MODULES.map((name) => `src/${name}.ts`));

await build({
  entryPoints: { lazytools: 'dist/cli/bin.js' },
  outdir: 'dist/cli',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['jiti', 'gpt-tokenizer'],
  plugins: [englishOnlyZodLocales, cosmiconfigOwnRequires],
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins (in every chunk).
  banner: { js: "import { createRequire as __lazytoolsRequire } from 'node:module';\nconst require = __lazytoolsRequire(import.meta.url);" },
  define: { __LAZYTOOLS_PLACEMENT_CODE__: JSON.stringify(placementCode) },
  logLevel: 'warning',
  legalComments: 'none',
});
