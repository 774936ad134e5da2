import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script (also run alone: node scripts/import-graph.mjs)
import { importCircles } from '../../scripts/import-graph.mjs';
import { ROOT } from '../harness/index.js';

const { files, folders } = importCircles(path.join(ROOT, 'src')) as { files: string[][]; folders: string[][] };

describe('imports of src/ run one way', () => {
  it('no file imports itself back through others (type and dynamic imports count)', () => {
    expect(files).toEqual([]);
  });

  it('no folder imports itself back through others', () => {
    expect(folders).toEqual([]);
  });
});
