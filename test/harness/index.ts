/**
 * The test harness: one home for what test files share (paths and fixtures, temporary projects,
 * event waits, the CLI as a process, SDK clients, the HTTP gateway). test/README.md says which
 * SDK client a test uses.
 */
export * from './apps.js';
export * from './cli.js';
export * from './clients.js';
export * from './events.js';
export * from './http.js';
export * from './paths.js';
export * from './projects.js';
export * from './streams.js';
export * from './toolsnaps.js';
