import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeConsole } from '../../src/cli/console.js';
import { processIO } from '../../src/cli/io.js';
import { stderrLogger } from '../../src/util/log.js';

/**
 * Everything the CLI and the gateway's log write to a terminal goes through processIO or
 * stderrLogger: control characters are escaped there, whatever a command or a message quotes
 * (an upstream's text, a lock's, an rc's), and `--json` output stays the same JSON value. On the
 * old main both wrote C1 CSI (U+009B), bidi overrides and ESC through as they came (fails there).
 */

afterEach(() => vi.restoreAllMocks());

/** What `write` sent to `stream` while `run` ran. */
function written(stream: NodeJS.WriteStream, run: () => void): string {
  let out = '';
  vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  run();
  vi.restoreAllMocks();
  return out;
}

const HOSTILE = 'name \u001b[2J \u009b31m \u202eevil \u2066 \u0085 \r\tend';

describe('terminal output escapes control characters in one place', () => {
  it('processIO: text lines escaped, tab and newline kept; JSON output stays the same value', () => {
    const text = written(process.stdout, () => processIO.out(`a\n${HOSTILE}`));
    expect(text).toBe('a\nname \\u001b[2J \\u009b31m \\u202eevil \\u2066 \\u0085 \\u000d\tend\n');
    const value = { tools: [{ name: HOSTILE, description: 'Read\u2028a file' }] };
    const json = written(process.stderr, () => processIO.err(JSON.stringify(value, null, 2)));
    expect(json).not.toMatch(/[\u0080-\u009f\u2028\u202e\u2066]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('stderrLogger: every level escaped', () => {
    const previous = process.env.LAZYTOOLS_QUIET;
    delete process.env.LAZYTOOLS_QUIET;
    try {
      const out = written(process.stderr, () => {
        stderrLogger.info(HOSTILE);
        stderrLogger.warn(HOSTILE);
        stderrLogger.error(HOSTILE);
      });
      expect(out.split('\n').filter(Boolean)).toEqual(['info', 'warning', 'error'].map((level) => `[lazytools] ${level === 'info' ? '' : `${level}: `}name \\u001b[2J \\u009b31m \\u202eevil \\u2066 \\u0085 \\u000d\tend`));
    } finally {
      if (previous !== undefined) process.env.LAZYTOOLS_QUIET = previous;
    }
  });
});

describe('stderrLogger info and warning lines stay one line', () => {
  // A glob or name quoted from an rc or an upstream with a newline started a line of its own:
  // `::error::…` there is a workflow command to a GitHub Actions log (fails on the old main).
  it('newlines in the message are escaped, as every other line break already was', () => {
    const previous = process.env.LAZYTOOLS_QUIET;
    delete process.env.LAZYTOOLS_QUIET;
    try {
      const out = written(process.stderr, () => {
        stderrLogger.info('kept x\n::error::forged');
        stderrLogger.warn('pin "x\n::add-mask::y\u2028::error::z" matches no tool');
      });
      expect(out).toBe('[lazytools] kept x\\u000a::error::forged\n[lazytools] warning: pin "x\\u000a::add-mask::y\\u2028::error::z" matches no tool\n');
    } finally {
      if (previous !== undefined) process.env.LAZYTOOLS_QUIET = previous;
    }
  });
});

describe('console output of dependencies (the MCP SDK warns there with a server\'s text)', () => {
  it('goes to stderr as the CLI\'s own lines do: escaped, cut, never to stdout (the protocol under serve)', () => {
    let out = '';
    let err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
    const undo = routeConsole();
    try {
      console.log('listed %s', HOSTILE);
      console.warn(`[sdk] excluding tool '${'x'.repeat(100_000)}'`);
    } finally {
      undo();
      vi.restoreAllMocks();
    }
    expect(out).toBe('');
    expect(err).toContain('listed name \\u001b[2J \\u009b31m \\u202eevil');
    expect(err).not.toContain('\u001b');
    expect(err.length).toBeLessThan(10_000);
    expect(err).toMatch(/… \(\d+ more characters\)\n$/);
  });
});

describe('lines of errors are never CI workflow commands', () => {
  // A start failure quotes the child's last stderr lines whole: a hostile server's `::add-mask::`
  // or `::error::` reached the operator's GitHub Actions log as a command (fails on the old main).
  const FAILURE = 'could not start upstream "x": the process exited with code 1 during start-up; its stderr said:\n::error::forged\n \u00a0::add-mask::y\nkept :: as is';
  const SAFE = 'could not start upstream "x": the process exited with code 1 during start-up; its stderr said:\n\\u003a:error::forged\n \u00a0\\u003a:add-mask::y\nkept :: as is';

  it('stderrLogger.error and the CLI\'s stderr keep the lines, each starting otherwise', () => {
    const logged = written(process.stderr, () => stderrLogger.error(FAILURE));
    expect(logged).toBe(`[lazytools] error: ${SAFE}\n`);
    expect(written(process.stderr, () => processIO.err(FAILURE))).toBe(`${SAFE}\n`);
  });
});
