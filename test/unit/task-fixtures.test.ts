import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../harness/index.js';

// The task sets bench/fit.mjs and the stack benches measure: a typo in a gold id or a mode would
// silently count as a miss, so their shape is checked here against the catalogs they were written over.

interface Task {
  task: string;
  mode: string;
  gold: string[];
  split: string;
}
const FIXTURES = path.join(ROOT, 'test/fixtures');
const json = (file: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8'));
/** The preset modes a task may be labelled with: the ten first presets and the six that cover the work of a whole product team. */
const PRESETS = [
  'code_review', 'daily_checkin', 'debugging', 'development', 'security_review', 'sprint_planning', 'task_management',
  'browser_testing', 'operations', 'research',
  'customer_support', 'sales', 'analytics', 'communications', 'infrastructure', 'content',
];

/** Every `server:tool` id of the given catalog files. */
function toolIds(...files: string[]): Set<string> {
  const ids = new Set<string>();
  for (const file of files) {
    const { servers } = json(`catalogs/${file}`) as { servers: Record<string, { tools: { name: string }[] }> };
    for (const [server, { tools }] of Object.entries(servers)) for (const tool of tools) ids.add(`${server}:${tool.name}`);
  }
  return ids;
}

const SETS = [
  { file: 'tasks/stack-tasks.json', catalogs: ['developer-stack.json'], splits: ['dev', 'test'] },
  { file: 'tasks/stack-tasks-blind.json', catalogs: ['developer-stack.json'], splits: ['blind'] },
  { file: 'tasks/developer-tasks.json', catalogs: ['real-world.json', 'reference-servers.json'], splits: ['dev', 'test'] },
  { file: 'tasks/commerce-stack-tasks.json', catalogs: ['commerce-stack.json'], splits: ['dev', 'test'] },
  { file: 'tasks/backoffice-stack-tasks.json', catalogs: ['backoffice-stack.json'], splits: ['dev'] },
  { file: 'tasks/growth-stack-tasks.json', catalogs: ['growth-stack.json'], splits: ['dev'] },
  { file: 'tasks/research-lab-stack-tasks.json', catalogs: ['research-lab-stack.json'], splits: ['blind'] },
  { file: 'tasks/ops-life-stack-tasks.json', catalogs: ['ops-life-stack.json'], splits: ['blind'] },
  { file: 'tasks/media-life-stack-tasks.json', catalogs: ['media-life-stack.json'], splits: ['blind'] },
  { file: 'tasks/people-civic-stack-tasks.json', catalogs: ['people-civic-stack.json'], splits: ['blind'] },
  { file: 'tasks/home-compliance-stack-tasks.json', catalogs: ['home-compliance-stack.json'], splits: ['blind'] },
  { file: 'tasks/solo-desk-stack-tasks.json', catalogs: ['solo-desk-stack.json'], splits: ['blind'] },
  { file: 'tasks/homelab-stack-tasks.json', catalogs: ['homelab-stack.json'], splits: ['dev'] },
  { file: 'tasks/campus-stack-tasks.json', catalogs: ['campus-stack.json'], splits: ['dev'] },
  { file: 'tasks/legal-finance-stack-tasks.json', catalogs: ['legal-finance-stack.json'], splits: ['dev'] },
  { file: 'tasks/secops-stack-tasks.json', catalogs: ['secops-stack.json'], splits: ['blind'] },
  { file: 'tasks/travel-sports-stack-tasks.json', catalogs: ['travel-sports-stack.json'], splits: ['blind'] },
  { file: 'tasks/industrial-stack-tasks.json', catalogs: ['industrial-stack.json'], splits: ['blind'] },
  { file: 'tasks/cloud-data-stack-tasks.json', catalogs: ['cloud-data-stack.json'], splits: ['dev'] },
  { file: 'tasks/content-workplace-stack-tasks.json', catalogs: ['content-workplace-stack.json'], splits: ['dev'] },
  { file: 'tasks/life-stack-tasks.json', catalogs: ['life-stack.json'], splits: ['dev', 'test'] },
];

interface Phrase {
  phrase: string;
  modes: string[];
  split: string;
}
const PHRASE_SETS = [
  { file: 'tasks/commerce-stack-intents.json', splits: ['dev', 'test'] },
  { file: 'tasks/backoffice-stack-intents.json', splits: ['dev'] },
  { file: 'tasks/growth-stack-intents.json', splits: ['dev'] },
  { file: 'tasks/research-lab-stack-intents.json', splits: ['blind'] },
  { file: 'tasks/ops-life-stack-intents.json', splits: ['blind'] },
  { file: 'tasks/media-life-stack-intents.json', splits: ['blind'] },
  { file: 'tasks/people-civic-stack-intents.json', splits: ['blind'] },
  { file: 'tasks/home-compliance-stack-intents.json', splits: ['blind'] },
  { file: 'tasks/solo-desk-stack-intents.json', splits: ['blind'] },
  { file: 'tasks/homelab-stack-intents.json', splits: ['dev'] },
  { file: 'tasks/campus-stack-intents.json', splits: ['dev'] },
  { file: 'tasks/legal-finance-stack-intents.json', splits: ['dev'] },
  { file: 'tasks/secops-stack-intents.json', splits: ['blind'] },
  { file: 'tasks/travel-sports-stack-intents.json', splits: ['blind'] },
  { file: 'tasks/industrial-stack-intents.json', splits: ['blind'] },
  { file: 'tasks/cloud-data-stack-intents.json', splits: ['dev'] },
  { file: 'tasks/content-workplace-stack-intents.json', splits: ['dev'] },
  { file: 'tasks/life-stack-intents.json', splits: ['dev', 'test'] },
];

describe('developer task fixtures', () => {
  it.each(SETS)('$file: each task has text, a preset mode, known gold tools and a split', ({ file, catalogs, splits }) => {
    const { note, tasks, catalogs: named } = json(file) as { note: unknown; tasks: Task[]; catalogs?: string[] };
    const ids = toolIds(...catalogs);
    expect(typeof note).toBe('string');
    if (named) expect(named).toEqual(catalogs);
    expect(tasks.length).toBeGreaterThanOrEqual(40);
    for (const t of tasks) {
      expect(t.task.trim(), JSON.stringify(t)).not.toBe('');
      expect(PRESETS, t.task).toContain(t.mode);
      expect(splits, t.task).toContain(t.split);
      expect(t.gold.length, t.task).toBeGreaterThan(0);
      expect(new Set(t.gold).size, t.task).toBe(t.gold.length);
      expect(t.gold.filter((id) => !ids.has(id)), t.task).toEqual([]);
    }
    expect(new Set(tasks.map((t) => t.task.toLowerCase())).size).toBe(tasks.length);
  });

  it.each(PHRASE_SETS)('$file: each intent phrase has text, preset modes and a split', ({ file, splits }) => {
    const { note, phrases } = json(file) as { note: unknown; phrases: Phrase[] };
    expect(typeof note).toBe('string');
    expect(phrases.length).toBeGreaterThanOrEqual(20);
    for (const p of phrases) {
      expect(p.phrase.trim(), JSON.stringify(p)).not.toBe('');
      expect(p.modes.length, p.phrase).toBeGreaterThan(0);
      expect(p.modes.filter((mode) => !PRESETS.includes(mode)), p.phrase).toEqual([]);
      expect(splits, p.phrase).toContain(p.split);
    }
    expect(new Set(phrases.map((p) => p.phrase.toLowerCase())).size).toBe(phrases.length);
  });

  it('keeps the blind set apart from the tuned stack tasks', () => {
    const tuned = new Set((json('tasks/stack-tasks.json') as { tasks: Task[] }).tasks.map((t) => t.task.toLowerCase()));
    const blind = (json('tasks/stack-tasks-blind.json') as { tasks: Task[] }).tasks;
    expect(blind.filter((t) => tuned.has(t.task.toLowerCase())).map((t) => t.task)).toEqual([]);
  });
});
