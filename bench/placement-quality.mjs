// Placement quality against hand labels: per preset mode, the precision and recall of what the
// mode's groups hold (shown or held back by its budget) on the real-world catalog
// (test/fixtures/catalogs/real-world.json, labels in real-world.labels.txt), and the share of
// developer tools placed in a fitting mode. test/unit/placement.test.ts holds the floors; this
// prints the figures. Usage: node bench/placement-quality.mjs
import path from 'node:path';
import { buildCatalog, readCatalogFile, resolveConfig, statusReport } from '../dist/index.js';
import { modeFit } from '../dist/focus/fit.js';
import { CODES, labels as readLabels } from './fit.mjs';
import { ROOT, round } from './lib.mjs';

const CATALOGS = path.join(ROOT, 'test/fixtures/catalogs');

export async function placementQuality() {
  const config = resolveConfig({});
  const { catalog } = buildCatalog(await readCatalogFile(path.join(CATALOGS, 'real-world.json')), config);
  const labels = readLabels(catalog.tools.map((tool) => tool.id));
  const report = statusReport(catalog, config);
  // What groups place: tools rc `fill` adds by closeness are measured on task sets (bench/stacks.mjs).
  const members = (mode) => {
    const filled = modeFit(catalog, config, mode.name)?.filledIds;
    return [...mode.toolIds, ...mode.heldBack.map((tool) => tool.id)].filter((id) => !filled?.has(id));
  };
  const modes = Object.values(CODES).map((name) => {
    const found = report.modes.find((mode) => mode.name === name);
    const placed = new Set(found ? members(found) : []);
    const wanted = new Set([...labels].filter(([, set]) => set.has(name)).map(([id]) => id));
    const hits = [...placed].filter((id) => wanted.has(id)).length;
    return { mode: name, placed: placed.size, labelled: wanted.size, precision: round(placed.size === 0 ? 1 : hits / placed.size, 2), recall: round(wanted.size === 0 ? 1 : hits / wanted.size, 2) };
  });
  const relevant = [...labels].filter(([, set]) => set.size > 0);
  const fitting = relevant.filter(([id, set]) => report.modes.some((mode) => set.has(mode.name) && members(mode).includes(id)));
  const placements = report.modes.filter((mode) => Object.values(CODES).includes(mode.name)).flatMap((mode) => members(mode).map((id) => labels.get(id)?.has(mode.name) === true));
  return {
    tools: catalog.tools.length,
    servers: catalog.servers.length,
    modes,
    fittingShare: round(fitting.length / relevant.length, 3),
    microPrecision: round(placements.filter(Boolean).length / placements.length, 3),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await placementQuality(), null, 2));
