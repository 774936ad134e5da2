import { existsSync } from 'node:fs';
import path from 'node:path';
import { VERSION } from '../util/version.js';

/** The rc schema's file at the root of the published package. */
const SCHEMA_FILE = 'lazytools.schema.json';

/**
 * The `$schema` `lazytools init` writes, so editors complete and check the rc whatever the
 * install. lazytools installed in the project (a devDependency): its copy, relative to the rc
 * (`./node_modules/lazytools/lazytools.schema.json`, found as Node finds packages, in the rc's
 * folder or a parent's), which follows the project's version. Otherwise (a global install, npx):
 * the published schema of this very version on unpkg, as npm tools link theirs; the project then
 * holds no copy, and an absolute path would name this machine's folders in a file teams commit.
 */
export function schemaReference(rcFile: string, version = VERSION): string {
  const from = path.dirname(rcFile);
  for (let dir = from; ; dir = path.dirname(dir)) {
    const local = path.join(dir, 'node_modules', 'lazytools', SCHEMA_FILE);
    if (existsSync(local)) {
      const relative = path.relative(from, local).split(path.sep).join('/');
      return relative.startsWith('../') ? relative : `./${relative}`;
    }
    if (path.dirname(dir) === dir) return `https://unpkg.com/lazytools@${version}/${SCHEMA_FILE}`;
  }
}
