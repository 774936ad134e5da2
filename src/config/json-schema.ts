import { z } from 'zod';
import { configSchema } from './schema.js';

/**
 * JSON Schema of the rc file, generated from the zod contract so editors validate and complete
 * `.lazytoolsrc.json` exactly as lazytools does (`lazytools.schema.json` in the package).
 */
export function rcJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }),
    $id: 'https://unpkg.com/lazytools/lazytools.schema.json',
    title: 'lazytools rc file',
  };
}
