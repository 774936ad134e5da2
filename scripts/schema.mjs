// Writes lazytools.schema.json from the zod rc schema (run after `npm run build`).
import { writeFileSync } from 'node:fs';
import { rcJsonSchema } from '../dist/config/json-schema.js';

writeFileSync(new URL('../lazytools.schema.json', import.meta.url), `${JSON.stringify(rcJsonSchema(), null, 2)}\n`);
console.log('wrote lazytools.schema.json');
