import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readVocabulary, searchVocabulary, vocabularyFolder } from '../../src/search/vocabulary.js';
import { ConfigError } from '../../src/util/errors.js';
import { CATALOGS } from '../harness/index.js';
import { tempTree } from '../harness/projects.js';

/** The search word lists are reviewed data: one file per kind, a reason on every entry. */

const dir = vocabularyFolder();
const files = readdirSync(dir).filter((file) => file.endsWith('.json'));
const raw = (file: string) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { note: string; entries: Array<Record<string, unknown>> };

describe('search vocabulary', () => {
  it('gives every entry of every file a reason, and every file a note', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
    for (const file of files) {
      const json = raw(file);
      expect(json.note.length, file).toBeGreaterThan(20);
      for (const entry of json.entries) expect(typeof entry.reason === 'string' && entry.reason.trim().length >= 8, `${file}: ${JSON.stringify(entry)}`).toBe(true);
    }
  });

  it('loads what the engine reads: stopwords, idioms, synonyms, action verbs', () => {
    const vocabulary = searchVocabulary();
    expect(vocabulary.stopwords.has('the')).toBe(true);
    expect(vocabulary.idioms).toContainEqual(['log in', 'login']);
    expect(vocabulary.synonyms.some((set) => set.includes('pull request') && set.includes('pr'))).toBe(true);
    expect(vocabulary.actions.destroy).toContain('delete');
  });

  it('names no tool of a known server: knowledge about words, not about fixtures', () => {
    // The rule of the server-names check: names of 6+ characters with _, - or a capital mean one server.
    const names = new Set<string>();
    for (const file of readdirSync(CATALOGS).filter((f) => f.endsWith('.json'))) {
      const json = JSON.parse(readFileSync(path.join(CATALOGS, file), 'utf8')) as { servers: Record<string, { tools: Array<{ name: string }> }> };
      for (const server of Object.values(json.servers)) for (const tool of server.tools) if (tool.name.length >= 6 && /[_\-A-Z]/.test(tool.name)) names.add(tool.name.toLowerCase());
    }
    expect(names.size).toBeGreaterThan(500);
    for (const file of files) {
      const text = JSON.stringify(raw(file).entries).toLowerCase();
      const found = [...names].filter((name) => new RegExp(`(^|[^a-z0-9_-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^a-z0-9_-]|$)`).test(text));
      expect(found, file).toEqual([]);
    }
  });

  it('refuses an entry without a reason, naming the file and the entry', () => {
    const copy = tempTree({});
    cpSync(dir, copy, { recursive: true });
    const synonyms = raw('synonyms.json');
    synonyms.entries.push({ set: ['invoice', 'bill'] });
    writeFileSync(path.join(copy, 'synonyms.json'), JSON.stringify(synonyms));
    expect(() => readVocabulary(copy)).toThrow(ConfigError);
    expect(() => readVocabulary(copy)).toThrow(new RegExp(`synonyms\\.json[\\s\\S]*entries\\[${synonyms.entries.length - 1}\\]\\.reason`));
  });
});
