import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, rcProject, startCli, stopAll } from '../harness/index.js';

/**
 * What reaches the operator's terminal from `lazytools serve`: an upstream's stderr lines and
 * errors quoted in warnings carry no control characters. On the old main a stdio upstream's
 * stderr line and its prompts/list error went to stderr raw (ESC sequences that clear the screen
 * or set the window title, C1 CSI, bidi overrides), the error whole (fails on the old main).
 */

afterEach(() => stopAll());

// eslint-disable-next-line no-control-regex -- the point: no control characters but tab and newline
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('serve: what reaches the terminal', () => {
  it('escapes control characters in upstream stderr lines and quoted errors, and cuts the errors', async () => {
    const { dir } = rcProject({ servers: { loud: { command: process.execPath, args: [FIXTURES.rawServer, 'stderr-flood'], env: { RAW_STDERR_MB: '1' } } } });
    const gateway = startCli(['serve'], { cwd: dir });
    await gateway.stderrMatching(/\[loud\] red .*done\n/);
    const [warning] = await gateway.stderrMatching(/could not list prompts: .*\n/);
    expect(warning).toContain('no prompts \\u001b[2J\\u001b]0;owned\\u0007 \\u009b31m \\u202eevil');
    expect(warning.length).toBeLessThan(1_000);
    for (const line of gateway.stderr().split('\n')) expect(line, JSON.stringify(line.slice(0, 200))).not.toMatch(CONTROL);
  });
});
