import { loadConfig } from '../config/load.js';
import { resolveConfig, type ResolvedConfig } from '../config/resolve.js';
import type { ServerConfig } from '../config/schema.js';
import { browserOpener } from '../upstream/auth/opener.js';
import { revokeSignIn } from '../upstream/auth/revoke.js';
import { signIn } from '../upstream/sign-in.js';
import { signInState, type SignInState } from '../upstream/auth/state.js';
import { listSignIns, readSignIn, removeSignIn, signInFolder } from '../upstream/auth/store.js';
import { remoteTarget, type RemoteTarget } from '../upstream/auth/target.js';
import { scopeText } from '../upstream/auth/needs-sign-in.js';
import { echoName, UnknownNameError } from '../util/errors.js';
import { own } from '../util/own.js';
import { counted } from '../util/plural.js';
import { configFlag, defineCommand, type FlagSpecs, intFlag, MAX_TIMER_SECONDS, UsageError } from './args.js';
import { type CliIO, type Command, warnLine } from './io.js';

const authFlags = {
  config: configFlag,
  status: { type: 'boolean', help: 'list the rc\'s remote servers: signed in or not, expiry, scopes (never a token)' },
  json: { type: 'boolean', help: 'with --status: [{server,url,state,grant,expiresAt,scope,refreshable,pendingScope}]' },
  logout: { type: 'boolean', help: 'forget the server\'s sign-in (revoked at the authorization server where it offers that)' },
  all: { type: 'boolean', help: 'with --logout: every stored sign-in, of any project' },
  scope: { type: 'string', value: 'S', help: 'ask for this scope (space-separated) besides what the server asks for' },
  'no-browser': { type: 'boolean', help: 'print the sign-in URL instead of opening a browser' },
  timeout: { type: 'string', value: 'S', help: 'seconds to wait for the browser to come back (default 300)' },
} as const satisfies FlagSpecs;

export const authCommand: Command = defineCommand('auth', authFlags, {
  args: '[SERVER]',
  about: `Signs in to a remote (url) server of the rc: OAuth 2.1 with PKCE in your browser through a
loopback redirect, or the rc's client credentials ("grant": "client_credentials"). Tokens are kept
for you alone in the user config folder (LAZYTOOLS_CONFIG_DIR, else $XDG_CONFIG_HOME/lazytools, else
~/.config/lazytools), never in the project; the gateway uses and refreshes them.`,
}, async ({ values, positionals }, io) => {
  if (positionals.length > 1) throw new UsageError(`expected one server, got ${positionals.length}: ${echoName(positionals.join(' '))}`);
  const server = positionals[0];
  if (values.json && !values.status) throw new UsageError('--json applies to --status only');
  if (values.all && !values.logout) throw new UsageError('--all applies to --logout only');
  if (values.status && values.logout) throw new UsageError('--status and --logout are separate: pass one of them');
  const callbackTimeoutMs = intFlag(values.timeout, 'timeout', 300, 'seconds', MAX_TIMER_SECONDS) * 1000;
  if (values.logout && values.all) return logoutAll(io);
  const { config: rc, file } = await loadConfig({ file: values.config, cwd: io.cwd });
  const config = resolveConfig(rc, file);
  if (values.status) return status(config, io, values.json === true, server);
  if (server === undefined) throw new UsageError(`name the server to ${values.logout ? 'sign out of' : 'sign in to'}${remoteNames(config).length > 0 ? ` (${remoteNames(config).join(', ')})` : ''}, or pass --status`);
  const target = targetOf(config, server, io.env);
  if (values.logout) return logout(target, io);
  if (!target.oauth) throw new UsageError(`server "${server}" does not sign in: ${target.headers && Object.keys(target.headers).some((h) => h.toLowerCase() === 'authorization') ? 'it sends an Authorization header from the rc' : '"oauth" is false in the rc (or no user folder is known)'}`);
  const signedIn = await signIn({ ...target, oauth: target.oauth }, {
    open: values['no-browser'] ? () => Promise.resolve(false) : browserOpener(io.env),
    say: (line) => io.err(line),
    scope: values.scope,
    callbackTimeoutMs,
  });
  const state = signInState(target);
  io.out(`signed in to ${server} (${target.url.href})${describe(state)}`);
  if (signedIn.tools !== undefined) io.out(`${server} lists ${counted(signedIn.tools, 'tool')}; run \`lazytools lock\` to record them`);
  else warnLine(io, `signed in, but ${server} could not be listed: ${signedIn.listError ?? 'no answer'}`);
  return 0;
});

/** The rc's remote server `name`, resolved; a usage error for a stdio or unknown one. */
function targetOf(config: ResolvedConfig, name: string, env: NodeJS.ProcessEnv): RemoteTarget {
  const server = own(config.servers, name) as ServerConfig | undefined;
  if (!server) throw new UnknownNameError('server', name, Object.keys(config.servers));
  if (server.url === undefined) throw new UsageError(`server "${name}" is a stdio server (it runs "${server.command ?? ''}"): only remote (url) servers sign in`);
  return remoteTarget(name, server, env, config.file);
}

function remoteNames(config: ResolvedConfig): string[] {
  return Object.entries(config.servers).filter(([, server]) => server.url !== undefined).map(([name]) => name).sort();
}

function status(config: ResolvedConfig, io: CliIO, json: boolean, only: string | undefined): number {
  const names = only !== undefined ? [only] : remoteNames(config);
  const states = names.map((name) => signInState(targetOf(config, name, io.env)));
  if (json) {
    io.out(JSON.stringify(states, null, 2));
    return 0;
  }
  if (states.length === 0) {
    io.out(`no remote (url) servers in ${config.file ?? 'the rc'}`);
    return 0;
  }
  const width = Math.max(...states.map((state) => state.server.length));
  for (const state of states) io.out(`${state.server.padEnd(width)}  ${label(state)}${describe(state)}  ${state.url}`);
  const folder = signInFolder(io.env);
  if (folder) io.err(`sign-ins are kept in ${folder}`);
  return 0;
}

function label(state: SignInState): string {
  switch (state.state) {
    case 'signed-in':
      return 'signed in';
    case 'expired':
      return state.grant === 'client_credentials' ? 'client credentials' : 'expired (renewed on next use)';
    case 'needs-sign-in':
      return `needs sign-in: run lazytools auth ${state.server}`;
    case 'not-signed-in':
      return state.grant === 'client_credentials' ? 'client credentials (token fetched on first use)' : 'not signed in';
    default:
      return 'no sign-in (Authorization header or "oauth": false)';
  }
}

/** ", expires in 54 min, scope "a b", refreshable" for a state that has tokens. */
function describe(state: SignInState): string {
  const parts: string[] = [];
  if (state.expiresAt !== undefined) {
    const minutes = Math.round((state.expiresAt - Date.now()) / 60_000);
    parts.push(minutes >= 0 ? `expires in ${minutes} min` : `expired ${-minutes} min ago`);
  }
  if (state.scope) parts.push(`scope "${scopeText(state.scope)}"`);
  if (state.refreshable) parts.push('refreshable');
  if (state.pendingScope) parts.push(`asks for more: "${scopeText(state.pendingScope)}"`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

async function logout(target: RemoteTarget, io: CliIO): Promise<number> {
  const file = target.oauth?.file;
  const stored = file ? readSignIn(file) : undefined;
  if (!file || !stored) {
    io.out(`not signed in to ${target.name}`);
    return 0;
  }
  const revoked = await revokeSignIn(stored, target.oauth?.settings);
  removeSignIn(file);
  io.out(`signed out of ${target.name}: ${revoked}`);
  return 0;
}

async function logoutAll(io: CliIO): Promise<number> {
  const folder = signInFolder(io.env);
  const all = folder ? listSignIns(folder) : [];
  for (const { file, signIn: stored } of all) {
    const revoked = await revokeSignIn(stored, undefined);
    removeSignIn(file);
    io.out(`signed out of ${stored.server} (${stored.url}): ${revoked}`);
  }
  if (all.length === 0) io.out('no stored sign-ins');
  return 0;
}
