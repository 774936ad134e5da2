import { serverHints } from '../catalog/explain.js';
import { passthroughHints, proxyPassthrough } from '../config/passthrough.js';
import { resolveConfig } from '../config/resolve.js';
import type { RcConfig } from '../config/schema.js';
import { dictionary, own } from '../util/own.js';
import { firstLines, listSome } from '../util/plural.js';

/** Servers (names or lines) one list of init's output shows; the rest are counted (the rc holds them all: 20,000 imported servers printed 298 KB). */
export const LISTED = 20;

/**
 * Lines `lazytools init` prints after writing an rc: per imported server, the preset groups and
 * modes its name alone places its tools in (the same scoring `lazytools groups` applies to every
 * tool), for the others how their tools are reached (search, or a mode's `pin`), and which
 * servers need variables from the user's shell passed through. JSON rc files have no comments, so this is printed, not written.
 * Each list shows at most LISTED servers.
 */
export function initHints(rc: RcConfig, file: string, env: NodeJS.ProcessEnv): string[] {
  const resolved = resolveConfig(rc, file);
  // A disabled server needs no placement or environment yet: hints are for what will run.
  const config = { ...resolved, servers: dictionary(Object.entries(resolved.servers).filter(([, server]) => server.disabled !== true)) };
  const mode = own(config.modes, config.defaultMode);
  const lines: string[] = [];
  const hints = serverHints(config);
  const byName = hints.filter((h) => h.modes.length > 0).map((hint) => `  ${hint.server}: its name places its tools in ${hint.groups.join(', ')} (modes ${hint.modes.join(', ')})`);
  lines.push(...firstLines(byName, LISTED, 'servers placed by their name'));
  const others = hints.filter((h) => h.modes.length === 0).map((h) => h.server);
  if (others.length > 0) {
    // Never "add the whole server to a mode": one server can hold hundreds of tools, many times a
    // mode's budget, and placement already shows each tool where its name and description say.
    lines.push(`  ${listSome(others, LISTED)}: placed tool by tool from their names and descriptions once listed. A tool no mode shows is still found by search_tools (and run by execute_tool) in every mode; to show one a mode always needs, pin it there, e.g.:`);
    if (mode) lines.push(`    ${JSON.stringify({ modes: { [mode.name]: { pin: [`${others[0] ?? 'server'}:<tool>`] } } })}`);
  }
  const out = lines.length > 0 ? ['Placement (after `lazytools lock`, `lazytools groups --unplaced` lists the tools no mode shows, with the groups each came closest to):', ...lines] : [];
  const passthrough = passthroughHints(config.servers);
  const proxies = proxyPassthrough(env);
  if (passthrough.length > 0 || proxies.length > 0) out.push('Environment from your shell (servers get a safe environment, not your whole shell); pass what they need through:');
  const needs = passthrough.map((hint) => `  ${hint.server} needs ${hint.why.join(' and ')}: "servers": { "${hint.server}": { "envPassthrough": ${JSON.stringify(hint.names)} } }`);
  out.push(...firstLines(needs, LISTED, 'servers that need variables from your shell'));
  if (proxies.length > 0) out.push(`  your shell sets a proxy; for every server: "envPassthrough": ${JSON.stringify(proxies)} at the top level`);
  return out;
}
