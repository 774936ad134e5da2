import type { ServerConfig } from '../config/schema.js';
import { isSecretKey, looksSecret } from '../config/secrets.js';

/*
 * Client entries that reach a remote server through `mcp-remote` (`npx -y mcp-remote <url> …`):
 * a stdio bridge that signs in with OAuth itself and keeps its tokens where lazytools cannot
 * use them. `init` imports them as the remote server they name (`url`, headers, transport, a
 * pre-registered client), signed in by `lazytools auth`.
 */

/** mcp-remote flags that take a value (the next argument), besides those read below. */
const VALUE_FLAGS = new Set(['--host', '--auth-timeout', '--resource', '--callback-path', '--authorize-param', '--header-file', '--static-oauth-client-metadata', '--token-endpoint', '--ignore-tool', '--ping-interval', '--protocol', '--auth-success-url', '--connect-timeout', '--headers-timeout', '--body-timeout']);

/** What an mcp-remote entry amounts to: an HTTP entry for the import, and what the rc adds to it. */
export interface McpRemoteEntry {
  /** The entry as a client's HTTP entry (`url`, `headers`, `disabled`), for the import's usual path. */
  entry: Record<string, unknown>;
  transport?: ServerConfig['transport'];
  /** The pre-registered client, the callback port and grant mcp-remote was given. */
  oauth?: { clientId?: string; clientSecret?: string; redirectPort?: number; clientMetadataUrl?: string; grant?: 'client_credentials' } | undefined;
  /** mcp-remote flags with no rc equivalent (reported). */
  dropped: string[];
}

/** The remote server an mcp-remote entry bridges to, or undefined for any other entry. */
export function mcpRemoteEntry(entry: Record<string, unknown>): McpRemoteEntry | undefined {
  if (typeof entry.command !== 'string' || !Array.isArray(entry.args)) return undefined;
  const argv = [entry.command, ...entry.args].map(String);
  const at = argv.findIndex((arg) => /(?:^|[\\/])mcp-remote(?:@[\w.^~-]+)?$/.test(arg));
  if (at < 0) return undefined;
  const env = (typeof entry.env === 'object' && entry.env !== null ? entry.env : {}) as Record<string, unknown>;
  // mcp-remote expands ${VAR} in its arguments from its own environment (the entry's `env`). The
  // URL goes into the rc and init's notes: there a secret of that env stays a reference
  // (`${TOKEN}`), read from lazytools' environment like the secrets init moves out of an entry's env.
  const expand = (value: string, secrets = true) =>
    value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
      const found = env[name];
      return typeof found === 'string' && (secrets || (!isSecretKey(name) && !looksSecret(found))) ? found : whole;
    });
  const rest = argv.slice(at + 1);
  const headers: Record<string, string> = {};
  const dropped: string[] = [];
  const oauth: NonNullable<McpRemoteEntry['oauth']> = {};
  let url: string | undefined;
  let transport: McpRemoteEntry['transport'];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    const value = () => expand(rest[++i] ?? '');
    if (arg === '--header') {
      const header = value();
      const colon = header.indexOf(':');
      if (colon > 0) headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    } else if (arg === '--transport') {
      const kind = value();
      transport = kind.startsWith('sse') ? 'sse' : kind.startsWith('http') ? 'streamable-http' : undefined;
    } else if (arg === '--static-oauth-client-info') {
      const info = parseJson(value());
      if (typeof info?.client_id === 'string') oauth.clientId = info.client_id;
      if (typeof info?.client_secret === 'string') oauth.clientSecret = info.client_secret;
      if (info === undefined) dropped.push('--static-oauth-client-info (not inline JSON)');
    } else if (arg === '--client-metadata-url') oauth.clientMetadataUrl = value();
    else if (arg === '--client-credentials') oauth.grant = 'client_credentials';
    else if (arg.startsWith('--')) {
      // The flag's name only: `--header=Authorization: Bearer …` carries its value inline.
      dropped.push(arg.includes('=') ? `${arg.slice(0, arg.indexOf('='))}=…` : arg);
      if (VALUE_FLAGS.has(arg)) i++;
    } else if (url === undefined && URL.canParse(expand(arg))) url = expand(arg, false);
    else if (/^\d{2,5}$/.test(arg)) oauth.redirectPort = Number(arg);
  }
  if (url === undefined) return undefined;
  const entryOut: Record<string, unknown> = { url, ...(Object.keys(headers).length > 0 ? { headers } : {}), ...(entry.disabled === true ? { disabled: true } : {}) };
  return { entry: entryOut, transport, oauth: Object.keys(oauth).length > 0 ? oauth : undefined, dropped };
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
