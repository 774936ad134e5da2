import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/**
 * Tool snapshots ("toolsnaps"): the exact definitions a client receives, one JSON file each,
 * compared byte for byte. A change to a definition fails its test until the snapshot is updated
 * on purpose and reviewed in the diff: `UPDATE_TOOLSNAPS=true npx vitest run <test file>` writes
 * them. A missing snapshot fails too (nothing is written without the flag), so a test can never
 * pass by creating what it compares against.
 */
export function matchToolsnap(file: string, value: unknown): void {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (process.env.UPDATE_TOOLSNAPS === 'true') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file)) throw new Error(`no toolsnap at ${file}: write it with UPDATE_TOOLSNAPS=true and review it`);
  expect(text, `${file} differs (UPDATE_TOOLSNAPS=true writes it; review the diff)`).toBe(readFileSync(file, 'utf8'));
}
