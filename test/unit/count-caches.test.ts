import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { definitionTokens } from '../../src/catalog/totals.js';
import { recordToolTokens, withoutRecordedCounts } from '../../src/util/tokens.js';
import { own, unlessEmpty } from '../../src/util/own.js';

/** Caches kept per object (a config section, a definition) must not outlive what they were taken from. */
describe('per-object count and config caches', () => {
  it('unlessEmpty sees a key added to a record it found empty before (only "non-empty" is remembered)', () => {
    const tools: Record<string, { pin?: boolean }> = {};
    expect(unlessEmpty(tools)).toBeUndefined();
    tools['srv:thing'] = { pin: true };
    expect(own(unlessEmpty(tools), 'srv:thing')?.pin).toBe(true);
    delete tools['srv:thing'];
    // A remembered non-empty record is returned still: `own` reads it, so the answer stays right.
    expect(own(unlessEmpty(tools), 'srv:thing')).toBeUndefined();
  });

  it('definitionTokens counts afresh inside withoutRecordedCounts (check) a definition it took a lock\'s forged count for before', async () => {
    const definition = { name: 'forged_count_tool', description: 'A description long enough to be many more tokens than one, counted by check itself whatever the lock says.', inputSchema: { type: 'object' as const, properties: { query: { type: 'string' } } } };
    const digest = createHash('sha1').update(JSON.stringify({ name: definition.name, description: definition.description, input_schema: definition.inputSchema })).digest('base64');
    expect(recordToolTokens({ o200k_base: { [digest]: 1 } })).toBe(1);
    expect(definitionTokens(definition, 'o200k_base')).toBe(1);
    const { result, differing } = await withoutRecordedCounts(async () => definitionTokens(definition, 'o200k_base'));
    expect(result).toBeGreaterThan(10);
    expect(differing).toBe(1);
  });

  it("recordToolTokens takes at most `most` counts per tokenizer: a lock's made-up digests are kept for the process's life (a million held 149 MB)", () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`digest-${i}`, 3]));
    expect(recordToolTokens({ o200k_base: many, cl100k_base: many }, 10)).toBe(20);
    // Malformed counts spend none of it.
    expect(recordToolTokens({ o200k_base: { bad: 0, worse: 'x', good: 2 } }, 1)).toBe(1);
  });
});
