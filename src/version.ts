/** Kept for the front and CLI, which import it from here; the value lives in util/version.ts (a leaf). */
export { VERSION } from './util/version.js';
