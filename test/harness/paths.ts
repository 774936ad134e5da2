import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests run from anywhere). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The catalog fixtures (`LAZYTOOLS_CATALOGS` points the suite at other ones). */
export const CATALOGS = path.resolve(ROOT, process.env.LAZYTOOLS_CATALOGS ?? 'test/fixtures/catalogs');
export const GITHUB_CATALOG = path.join(CATALOGS, 'github-mcp-server.json');
export const REFERENCE_CATALOG = path.join(CATALOGS, 'reference-servers.json');
/** The built CLI, as package.json's `bin` names it (`npm test` builds first). */
export const BIN = path.join(ROOT, (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: { lazytools: string } }).bin.lazytools);

/** Upstream servers the tests start, one name each (all under test/fixtures/). */
export const FIXTURES = {
  /** Every MCP feature, both eras (`--legacy-only`, `--modern-only`, `--http PORT`). */
  kitchenSink: path.join(ROOT, 'test/fixtures/kitchen-sink.mjs'),
  /** Answers with raw bytes a test scripts (a malformed upstream). */
  rawServer: path.join(ROOT, 'test/fixtures/hostile/raw-server.mjs'),
  hostileServer: path.join(ROOT, 'test/fixtures/hostile/hostile-server.mjs'),
  /** A Streamable HTTP server (`--http PORT`) whose tools answer with huge or endless JSON bodies and SSE events. */
  hostileHttp: path.join(ROOT, 'test/fixtures/hostile/http-server.mjs'),
  /** Completions out of the spec's shape (150 values, a total no integer holds, values that are not strings). */
  completionServer: path.join(ROOT, 'test/fixtures/hostile/completion-server.mjs'),
  /** Answers and logs values nested 20,000 levels deep. */
  deepServer: path.join(ROOT, 'test/fixtures/hostile/deep-server.mjs'),
  echoSecretServer: path.join(ROOT, 'test/fixtures/echo-secret-server.mjs'),
  /** Repeats SECRET_VALUE JSON-escaped as Go, PHP or all-\uXXXX encoders write it. */
  escaping: path.join(ROOT, 'test/fixtures/servers/escaping.mjs'),
  /** A stdio server of both eras whose tool asks push-style (`elicitInput`): answered on a 2025 connection only. */
  pushAsker: path.join(ROOT, 'test/fixtures/servers/push-asker.mjs'),
  /** Never answers initialize. */
  silent: path.join(ROOT, 'test/fixtures/servers/silent.mjs'),
  /** Leaves a grandchild that outlives stdin. */
  lingering: path.join(ROOT, 'test/fixtures/servers/lingering.mjs'),
  generatedServer: path.join(ROOT, 'test/fixtures/servers/generated-server.mjs'),
  /** Floods notifications on demand (`<name>_flood`), over stdio or `--http PORT`; FLOOD_NAME names its tools. */
  flood: path.join(ROOT, 'test/fixtures/servers/flood.mjs'),
  /** A hosted-style server: Streamable HTTP and HTTP+SSE (`--sse-only`), OAuth-guarded with `--issuer URL`. */
  remoteServer: path.join(ROOT, 'test/fixtures/remote-server.mjs'),
  /** A real OAuth 2.1 authorization server (oidc-provider) that always signs alice in. */
  oauthServer: path.join(ROOT, 'test/fixtures/oauth-server.mjs'),
  /** A browser for LAZYTOOLS_BROWSER that follows a sign-in's redirects (cookies kept). */
  headlessBrowser: path.join(ROOT, 'test/fixtures/headless-browser.mjs'),
} as const;

/** mcp-remote's stdio bridge (Claude Desktop's way to an HTTP server). */
export const MCP_REMOTE = path.join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');

/** Absolute path of a reference server's entry point (devDependencies). */
export function serverEntry(name: 'everything' | 'filesystem' | 'memory'): string {
  return path.join(ROOT, 'node_modules', '@modelcontextprotocol', `server-${name}`, 'dist', 'index.js');
}
