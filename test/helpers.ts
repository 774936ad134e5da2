/**
 * Kept so that test files written before test/harness/ still build; new files import from
 * './harness/index.js' (or '../harness/index.js').
 */
export * from './harness/events.js';
export * from './harness/paths.js';
export * from './harness/projects.js';
