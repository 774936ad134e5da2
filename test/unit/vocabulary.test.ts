import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../src/config/topics.js';
import { entryList, VocabularyError } from '../../src/config/vocabulary.js';
import { packageRoot } from '../../src/util/root.js';
import { CATALOGS } from '../harness/index.js';

// Word knowledge is reviewed data: every entry says why, and none is one server's tool name.
const root = packageRoot();
const read = (file: string) => JSON.parse(readFileSync(path.join(root, 'vocabulary', file), 'utf8')) as Record<string, unknown>;

/** Every `{ ..., why }` entry in a vocabulary file, with where it is. */
function entries(value: unknown, at: string, out: Array<{ at: string; entry: Record<string, unknown> }> = []): Array<{ at: string; entry: Record<string, unknown> }> {
  if (Array.isArray(value)) value.forEach((item, index) => entries(item, `${at}[${index}]`, out));
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if ('words' in record || 'phrases' in record || 'text' in record) out.push({ at, entry: record });
    else for (const [key, child] of Object.entries(record)) entries(child, `${at}.${key}`, out);
  }
  return out;
}

/** Tool names of the fixture catalogs that could only mean one server: six or more characters with an underscore, a dash or a capital. */
function fixtureToolNames(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(CATALOGS).filter((name) => name.endsWith('.json'))) {
    const json = JSON.parse(readFileSync(path.join(CATALOGS, file), 'utf8')) as { servers?: Record<string, { tools?: Array<{ name?: unknown }> }> };
    for (const server of Object.values(json.servers ?? {})) for (const tool of server.tools ?? []) if (typeof tool.name === 'string' && tool.name.length >= 6 && /[_\-A-Z]/.test(tool.name)) names.add(tool.name);
  }
  return names;
}

describe('vocabulary data', () => {
  const files = ['topics.json', 'verbs.json', 'fitting.json', 'log-levels.json'];

  it.each(files)('%s: every entry says why', (file) => {
    const found = entries(read(file), file);
    expect(found.length).toBeGreaterThan(5);
    for (const { at, entry } of found) {
      expect(typeof entry.why, at).toBe('string');
      expect((entry.why as string).split(/\s+/).length, `${at}: a reason, not a word`).toBeGreaterThanOrEqual(3);
    }
  });

  it('every topic says what it covers, and its rules name topics that exist', () => {
    for (const [name, topic] of Object.entries(TOPICS)) {
      expect(topic.description.length, name).toBeGreaterThan(10);
      for (const other of [...(topic.yieldsTo ?? []), ...(topic.losesTo ?? []), ...(topic.requires ?? [])]) expect(TOPICS[other], `${name} -> ${other}`).toBeDefined();
    }
  });

  it('holds no tool name of a fixture server, and neither do src/ and the presets', () => {
    const names = fixtureToolNames();
    expect(names.size).toBeGreaterThan(500);
    for (const file of files) {
      const words = new Set(JSON.stringify(read(file)).split(/[^A-Za-z0-9_-]+/));
      expect([...names].filter((name) => words.has(name)), file).toEqual([]);
    }
    const hits: string[] = [];
    const scan = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) scan(file);
        else if (file.endsWith('.ts')) for (const word of new Set(readFileSync(file, 'utf8').split(/[^A-Za-z0-9_-]+/))) if (names.has(word)) hits.push(`${path.relative(root, file)}: ${word}`);
      }
    };
    scan(path.join(root, 'src'));
    expect(hits).toEqual([]);
    // Presets too: one server's tool names live in its profile (vocabulary/servers.json).
    for (const file of readdirSync(path.join(root, 'modes')).filter((name) => name.endsWith('.json'))) {
      const words = new Set(readFileSync(path.join(root, 'modes', file), 'utf8').split(/[^A-Za-z0-9_-]+/));
      expect([...names].filter((name) => words.has(name)), `modes/${file}`).toEqual([]);
    }
  });
});

describe('vocabulary checks', () => {
  it('name the key path of a malformed entry', () => {
    expect(() => entryList({ write: [{ words: 'create', why: 'makes things' }, { words: 'update' }] }, 'write')).toThrow(/^write\[1\]\.why: expected a string$/);
    expect(() => entryList({ write: [{ why: 'no words' }] }, 'write')).toThrow(VocabularyError);
    expect(() => entryList({ write: 'create' }, 'write')).toThrow(/write: expected a list of entries/);
    expect(entryList({ read: [{ phrases: 'read only', why: 'says it reads' }] }, 'read')).toEqual([{ words: undefined, phrases: 'read only', why: 'says it reads' }]);
  });
});
