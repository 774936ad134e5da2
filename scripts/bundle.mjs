// Bundles the CLI into one file: Node then resolves and loads one module instead of hundreds,
// which cuts `lazytools serve` cold start by about a third. The library (dist/index.js) stays
// unbundled. Packages loaded lazily or by computed paths stay external.
import { readFileSync } from 'node:fs';
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

await build({
  entryPoints: ['dist/cli/bin.js'],
  outfile: 'dist/cli/lazytools.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['jiti', 'gpt-tokenizer', 'cosmiconfig'],
  plugins: [englishOnlyZodLocales],
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __lazytoolsRequire } from 'node:module';\nconst require = __lazytoolsRequire(import.meta.url);" },
  logLevel: 'warning',
  legalComments: 'none',
});
