import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';

/**
 * The public API is a contract: these lists change only on purpose, so an added or removed
 * export shows in review. Values are read from the module; types from its export declarations.
 */
const VALUES = [
  'ConfigError',
  'GROUPS_EXTENSION',
  'Gateway',
  'GroupToolRegistry',
  'SearchIndex',
  'UnknownNameError',
  'buildCatalog',
  'curate',
  'getGroup',
  'listGroups',
  'loadConfig',
  'offersGroups',
  'openProject',
  'parseCatalog',
  'parseConfig',
  'readCatalogFile',
  'resolveConfig',
  'resolveIntent',
  'serve',
  'statusReport',
];

const TYPES = [
  'BuiltCatalog',
  'Catalog',
  'CatalogGroup',
  'CatalogTool',
  'ConnectableServer',
  'CurateOptions',
  'CuratedServer',
  'FetchedGroup',
  'FrontSession',
  'GatewayOptions',
  'Group',
  'GroupConfig',
  'GroupTool',
  'GroupsClient',
  'HttpFront',
  'HttpOptions',
  'IntentMatch',
  'ListStatus',
  'LoadConfigOptions',
  'LoadedConfig',
  'Logger',
  'ModeConfig',
  'ModeStatus',
  'OpenProjectOptions',
  'Project',
  'RcConfig',
  'ResolvedConfig',
  'ResolvedMode',
  'SearchHit',
  'SearchOptions',
  'ServeOptions',
  'Served',
  'ServedStrategy',
  'ServerConfig',
  'ServerTools',
  'SessionOptions',
  'StatusReport',
  'Strategy',
  'TokenizerName',
  'ToolDefinition',
  'ToolOverride',
];

/** Names `src/index.ts` exports, split into values and type-only exports. */
function declaredExports(): { values: string[]; types: string[] } {
  const file = new URL('../../src/index.ts', import.meta.url);
  const source = ts.createSourceFile('index.ts', readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const values: string[] = [];
  const types: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) (statement.isTypeOnly || element.isTypeOnly ? types : values).push(element.name.text);
  }
  return { values: values.sort(), types: types.sort() };
}

describe('public API', () => {
  it('exports exactly the listed values from the package entry', () => {
    expect(Object.keys(api).sort()).toEqual(VALUES);
  });

  it('declares exactly the listed values and types', () => {
    const declared = declaredExports();
    expect(declared.values).toEqual(VALUES);
    expect(declared.types).toEqual(TYPES);
  });
});
