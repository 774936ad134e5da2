import { placementReport, type ToolPlacement } from '../catalog/explain.js';
import { toolGlob } from '../catalog/groups.js';
import { modeFit, type RankedTool } from '../focus/fit.js';
import { openProject } from '../project.js';
import { didYouMean } from '../util/closest.js';
import { echoName } from '../util/errors.js';
import { defineCommand, type FlagSpecs } from './args.js';
import { type CliIO, type Command, warnLine } from './io.js';
import { projectOptions } from './status.js';

interface FitLine {
  mode: string;
  shown: boolean;
  priority: number;
  reason: string;
  why: string[];
}

const groupsFlags = {
  ...projectOptions,
  tool: { type: 'string', value: 'GLOB', help: 'only tools whose "server:tool" id matches (a glob without ":" matches any server)' },
  unplaced: { type: 'boolean', help: 'only tools no mode but "all" shows (in no group, or in groups no mode uses), with why' },
  json: { type: 'boolean', help: '{"threshold","tools":[{id,name,groups:[{group,reason,score?}],modes,filledIn?,readOnly,write,closest,unplaced?,closestModes?,fit:[{mode,shown,priority,reason,why}]}],"unplaced"}' },
} as const satisfies FlagSpecs;

export const groupsCommand: Command = defineCommand('groups', groupsFlags, {
  about: `Shows per tool the groups it is in and why (tool glob, keyword, or topic with its score and
evidence), the modes that show it, and whether it only reads. Tools in no group get the
groups they came closest to, and tools no mode shows the modes whose work came closest, with
the evidence; add them with rc "groups" (a group's "tools" or "topics").
Per mode that includes a tool: its priority there, whether the mode shows it within its budget
or holds it back (reachable through search_tools), and the signals behind the priority.`,
}, async ({ values }, io) => {
  const project = await openProject({ config: values.config, catalogs: values.catalog, cwd: io.cwd });
  // What the catalog lost on the way (a tool left out for a look-alike name), as status and check say it.
  for (const warning of project.warnings) warnLine(io, warning);
  const glob = values.tool === undefined ? undefined : toolGlob(values.tool);
  const report = placementReport(project.catalog, project.config, (tool) => glob === undefined || glob.test(tool.id));
  if (values.tool !== undefined && report.tools.length === 0) {
    // An empty answer would read as "this tool is in no group": say the glob matched nothing.
    const ids = [...project.catalog.servers.map((server) => `${server}:*`), ...project.catalog.tools.map((tool) => tool.id)];
    const names = values.tool.includes(':') ? ids : project.catalog.tools.map((tool) => tool.name);
    io.err(`no tool matches --tool "${echoName(values.tool)}" among the catalog's ${project.catalog.tools.length} tools.${didYouMean(values.tool, names)} Globs match "server:tool" ids, e.g. "github:*" or "*issue*".`);
    return 1;
  }
  const placed = values.unplaced ? report.tools.filter((tool) => tool.unplaced !== undefined) : report.tools;
  const ranks = new Map<string, Map<string, RankedTool>>();
  const rankIn = (mode: string) => {
    let byId = ranks.get(mode);
    if (!byId) ranks.set(mode, (byId = new Map((modeFit(project.catalog, project.config, mode)?.ranked ?? []).map((entry) => [entry.tool.id, entry]))));
    return byId;
  };
  // Modes that show a tool none of their groups holds, because their work is close to it (rc
  // `fill`): "none but all" would be false for those.
  // Read once per mode, on first ask: the tool lines and the unplaced count below both ask.
  let fillsOf: Map<string, string[]> | undefined;
  const filledIn = (id: string): string[] => {
    if (!fillsOf) {
      fillsOf = new Map();
      for (const mode of Object.keys(project.config.modes))
        for (const filled of modeFit(project.catalog, project.config, mode)?.filledIds ?? []) fillsOf.set(filled, [...(fillsOf.get(filled) ?? []), mode]);
    }
    return fillsOf.get(id) ?? [];
  };
  const tools = placed.map((tool) => {
    const fills = filledIn(tool.id);
    return {
      ...tool,
      ...withFill(fills),
      fit: [...tool.modes, ...fills].flatMap((mode) => {
        const entry = rankIn(mode).get(tool.id);
        return entry ? [{ mode, shown: entry.shown, priority: entry.priority, reason: entry.reason, why: entry.why }] : [];
      }),
    };
  });
  if (values.json) {
    writeJson(io, { threshold: report.threshold, tools, unplaced: report.unplaced });
    return 0;
  }
  // A write per tool: one string of every tool's lines passed V8's string limit ("Invalid string
  // length", after minutes) on 5,000 groups each holding all of 3,000 tools.
  if (tools.length === 0) io.out('');
  for (const tool of tools) io.out(render(tool));
  const total = report.tools.length;
  const filled = report.unplaced.filter((id) => filledIn(id).length > 0).length;
  const byFill = filled > 0 ? ` (${filled} only by fill: in no mode's groups, close to a mode's work)` : '';
  io.err(`${total - report.unplaced.length + filled}/${total} tools shown by a mode other than "all"${byFill}; ${report.unplaced.length - filled} only in "all" modes (topic threshold ${report.threshold})`);
  return 0;
});

/**
 * `JSON.stringify(value, null, 2)`, written a tool at a time (each tool's text indented to its
 * place in the array) so no one string holds every tool's placements; the same bytes.
 */
function writeJson(io: Pick<CliIO, 'out'>, value: { threshold: number; tools: readonly object[]; unplaced: readonly string[] }): void {
  if (value.tools.length === 0) {
    io.out(JSON.stringify(value, null, 2));
    return;
  }
  // A placeholder element marks where the tools go; JSON strings hold no raw newline, so it is unique.
  const [before, after] = JSON.stringify({ ...value, tools: [0] }, null, 2).split('\n    0\n');
  io.out(before ?? '');
  value.tools.forEach((tool, index) => io.out(`    ${JSON.stringify(tool, null, 2).replace(/\n/g, '\n    ')}${index < value.tools.length - 1 ? ',' : ''}`));
  io.out(after ?? '');
}

function withFill(modes: string[]): { filledIn?: string[] } {
  return modes.length > 0 ? { filledIn: modes } : {};
}

function render(tool: ToolPlacement & { filledIn?: string[]; fit: FitLine[] }): string {
  const lines = [`${tool.id}${tool.name !== tool.id.slice(tool.id.indexOf(':') + 1) ? ` (as ${tool.name})` : ''}  [${tool.write.kind}: ${tool.write.reason}]`];
  if (tool.groups.length === 0) lines.push(`  no group${tool.closest.length > 0 ? `; closest: ${tool.closest.join('; ')}` : ''}`);
  for (const group of tool.groups) lines.push(`  ${group.group.padEnd(16)} ${group.reason}`);
  const fill = tool.filledIn ?? [];
  if (tool.modes.length > 0) lines.push(`  modes: ${tool.modes.join(', ')}${fill.length > 0 ? `; by fill: ${fill.join(', ')} (close to their work, outside their groups)` : ''}`);
  else if (fill.length > 0) lines.push(`  modes: ${fill.join(', ')} (by fill only: close to their work; ${tool.unplaced ?? 'in no mode'})`);
  else lines.push(`  modes: (none but "all": ${tool.unplaced ?? 'in no mode'})`);
  if (tool.closestModes !== undefined)
    lines.push(`  closest modes: ${tool.closestModes.length > 0 ? tool.closestModes.join('; ') : tool.aboutServer ? 'none: it is about its server itself (login, health, limits, feedback), not any work' : 'none: no word of its name, description or fields is evidence of any mode\'s work'}`);
  for (const fit of tool.fit) lines.push(`    ${fit.mode}: ${fit.shown ? 'shown' : 'held back'}, priority ${fit.priority}: ${fit.reason}${fit.why.length > 0 ? ` [${fit.why.join(', ')}]` : ''}`);
  return lines.join('\n');
}
