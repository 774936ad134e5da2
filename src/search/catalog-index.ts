import type { Catalog } from '../catalog/catalog.js';
import { SearchIndex } from './engine.js';

const indexes = new WeakMap<object, SearchIndex>();

/**
 * The search index of a catalog, built on first use and shared: `search_tools`, intent and fitting
 * (a mode's typical tasks, see focus/fill.ts) read the same one, so a catalog is indexed once and
 * held in memory once. A new catalog (a reload, drift) is a new object and gets its own index.
 */
export function catalogIndex(catalog: Pick<Catalog, 'tools' | 'groups'>): SearchIndex {
  let index = indexes.get(catalog);
  if (!index) indexes.set(catalog, (index = new SearchIndex(catalog.tools, catalog.groups)));
  return index;
}
