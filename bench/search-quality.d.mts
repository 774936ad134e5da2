import type { CatalogTool } from '../src/catalog/catalog.js';

/** A query with the tools that answer it (any of them counts as a hit). */
export interface LabeledQuery {
  query: string;
  expect: string[];
}

export interface Quality {
  hit1: number;
  hit5: number;
  misses: string[];
}

export function searchQuality(queries: readonly LabeledQuery[], rank: (query: string) => string[]): Quality;
export function naiveSearch(tools: readonly CatalogTool[], query: string, limit?: number): string[];
