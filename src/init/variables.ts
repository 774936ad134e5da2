import { PLAIN_VARIABLES } from '../config/env.js';
import { echoName } from '../util/errors.js';
import { isSecretKey, isSecretParam } from '../config/secrets.js';
import { decodeOrKeep } from '../util/uri.js';
import { replaceBraced } from '../util/braces.js';

// How `lazytools init` keeps values out of the rc it writes: secrets become `${NAME}` references
// (in env, headers, arguments and URLs), and a client's own variables become ours.

/** How the rc comes to read a variable: a secret moved out by init, or a reference the client config made. */
type VariableKind = 'moved' | 'required' | 'optional';

/** Environment variable names the rc refers to, each bound to one value so servers stay distinct. */
export class Variables {
  private readonly values = new Map<string, string>();
  private readonly kinds = new Map<string, VariableKind>();

  /** `value` as a reference to a variable named `preferred` (or `<SERVER>_<preferred>` when taken). */
  move(value: string, preferred: string, server: string): string {
    if (/^\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}$/.test(value)) return value;
    let name = preferred;
    const taken = this.values.get(name);
    if (taken !== undefined && taken !== value) {
      name = envName(`${server}_${preferred}`);
      for (let n = 2; this.values.has(name) && this.values.get(name) !== value; n++) name = envName(`${server}_${preferred}_${n}`);
    }
    this.values.set(name, value);
    this.kinds.set(name, 'moved');
    return `\${${name}}`;
  }

  /**
   * A reference the client config already made (`${X}`, VS Code `${env:X}`, `${input:x}`): kept,
   * listed; `optional` when it has a default (`${X:-default}`), so nothing needs to set it.
   */
  use(name: string, optional = false): void {
    if (!this.values.has(name)) this.values.set(name, '');
    const kind = this.kinds.get(name);
    if (kind === undefined || (kind === 'optional' && !optional)) this.kinds.set(name, optional ? 'optional' : 'required');
  }

  /** Secrets init moved out of the file. */
  moved(): string[] {
    return this.named((kind) => kind === 'moved');
  }

  /**
   * What lazytools' environment must set for the rc: moved secrets and references without a
   * default, but not what every client gives a server anyway (`HOME`: a `--env HOME=<HOME>` in a
   * snippet would only invite a wrong value).
   */
  needed(): string[] {
    return this.named((kind, name) => kind === 'moved' || (kind === 'required' && !PLAIN_VARIABLES.has(name.toUpperCase())));
  }

  /** References read but not needed: with a default, or always set. */
  optional(): string[] {
    const needed = new Set(this.needed());
    return this.named((_, name) => !needed.has(name));
  }

  private named(keep: (kind: VariableKind, name: string) => boolean): string[] {
    return [...this.values.keys()].filter((name) => keep(this.kinds.get(name) ?? 'required', name));
  }
}

/** A header value with its scheme word kept: `Bearer x` -> `Bearer ${NAME}`. */
export function moveHeader(value: string, name: string, server: string, variables: Variables): string {
  const scheme = /^([A-Za-z][A-Za-z0-9_-]{0,20}) +(\S.*)$/.exec(value);
  if (scheme && !value.includes('${')) return `${scheme[1]} ${variables.move(scheme[2] as string, name, server)}`;
  if (value.includes('${')) return value;
  return variables.move(value, name, server);
}

/**
 * `--api-key X`, `--token=X`, `API_KEY=X` (servers that read settings from `NAME=value`
 * arguments, like vercel-mcp) and credentialed URLs in arguments become references.
 */
export function scrubArgs(args: string[], server: string, variables: Variables): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const inline = /^(--?[\w-]+)=(.*)$/.exec(arg);
    if (inline && isSecretKey(inline[1] as string) && !(inline[2] as string).startsWith('${')) {
      out.push(`${inline[1]}=${variables.move(inline[2] as string, envName(`${server}_${inline[1]}`), server)}`);
      continue;
    }
    // A variable-shaped name keeps its own name: it is what the server's documentation calls it.
    const setting = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(arg);
    if (setting && isSecretKey(setting[1] as string) && !(setting[2] as string).startsWith('${')) {
      out.push(`${setting[1]}=${variables.move(setting[2] as string, envName(setting[1] as string), server)}`);
      continue;
    }
    const previous = out[out.length - 1];
    if (previous !== undefined && /^--?[\w-]+$/.test(previous) && isSecretKey(previous) && !previous.includes('=') && !arg.startsWith('-') && !arg.startsWith('${')) {
      out.push(variables.move(arg, envName(`${server}_${previous}`), server));
      continue;
    }
    out.push(/^[a-z][a-z0-9+.-]*:\/\//i.test(arg) ? scrubUrlCredentials(arg, server, variables) : arg);
  }
  return out;
}

/** A URL argument with its password and credential query values moved out. */
function scrubUrlCredentials(value: string, server: string, variables: Variables): string {
  let out = value.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^:/@\s]*):([^@/\s]+)@/i, (whole, scheme: string, user: string, password: string) =>
    password.startsWith('${') ? whole : `${scheme}${user}:${variables.move(decodeOrKeep(password), envName(`${server}_PASSWORD`), server)}@`,
  );
  out = out.replace(/([?&])([^=&#?]+)=([^&#]*)/g, (whole, sep: string, key: string, raw: string) =>
    isSecretParam(key) && raw !== '' && !raw.startsWith('${') ? `${sep}${key}=${variables.move(decodeOrKeep(raw), envName(`${server}_${key}`), server)}` : whole,
  );
  return out;
}

/**
 * A server URL: query credentials become references; `user:password@` cannot stay in the URL (the
 * gateway refuses it), so it moves to an Authorization header the user fills in.
 */
export function scrubUrl(value: string, server: string, variables: Variables, notes: string[], at: string): { url: string; headers: Record<string, string> } {
  const userinfo = /^([a-z][a-z0-9+.-]*:\/\/)([^/@\s]+)@/i.exec(value);
  const url = scrubUrlCredentials(userinfo ? value.replace(userinfo[0], userinfo[1] as string) : value, server, variables);
  if (!userinfo) return { url, headers: {} };
  const name = envName(`${server}_BASIC_AUTH`);
  variables.use(name);
  notes.push(`${at}.url carried user:password@: removed; set ${name} to base64("user:password") for the Authorization header it now sends`);
  return { url, headers: { Authorization: `Basic \${${name}}` } };
}

/**
 * VS Code variables: `${env:X}` is our `${X}`; `${input:id}` (a prompt in VS Code) becomes
 * `${ID}`, to be set in the environment; `${workspaceFolder}` is the project folder, where the rc
 * lives and children start. Anything else `${...}` that is not ours is reported.
 */
export function vscodeVariables(value: string, where: string, variables: Variables, notes: string[]): string {
  return replaceBraced(value, /\$\{([^}]*)\}/g, (whole, inner: string) => {
    const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner);
    if (env) {
      variables.use(env[1] as string);
      return `\${${env[1]}}`;
    }
    const input = /^input:(.+)$/.exec(inner);
    if (input) {
      const name = envName(input[1] as string);
      variables.use(name);
      notes.push(`${where}: VS Code input "${echoName(input[1] as string)}" (prompted by VS Code) is read from \${${name}}`);
      return `\${${name}}`;
    }
    if (inner === 'workspaceFolder') {
      notes.push(`${where}: \${workspaceFolder} became "." (the rc's folder)`);
      return '.';
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?$/.test(inner)) {
      variables.use(inner.replace(/:-.*$/, ''), inner.includes(':-'));
      return whole;
    }
    notes.push(`${where}: "${echoName(whole)}" is a client variable lazytools does not know; it was left as written`);
    return whole;
  });
}

/** An environment variable name: upper case, `_` for anything else. */
export function envName(raw: string): string {
  const name = raw.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return /^[A-Z_]/.test(name) ? name : `V_${name}`;
}

