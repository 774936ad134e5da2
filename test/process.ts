/**
 * Kept so that test files written before test/harness/ still build; new files import from
 * './harness/index.js' (or '../harness/index.js').
 */
export { serveHttpCli, startCli, stopAll, type CliProcess } from './harness/cli.js';
