import { VERSION } from '../util/version.js';
import { outsideText } from '../util/redact.js';
import { didYouMean } from '../util/closest.js';
import { ConfigError, echoName, UnknownNameError } from '../util/errors.js';
import { UsageError } from './args.js';
import { processIO, type CliIO, type Command } from './io.js';

/** Commands by name, loaded on use so `serve` starts without the others' imports. */
const commands: Array<{ name: string; summary: string; load: () => Promise<Command> }> = [
  { name: 'serve', summary: 'Run the gateway in front of the rc file\'s MCP servers (stdio, or Streamable HTTP)', load: async () => (await import('./serve.js')).serveCommand },
  { name: 'status', summary: 'Tools and tokens each mode shows, against the whole catalog', load: async () => (await import('./status.js')).statusCommand },
  { name: 'check', summary: 'Fail when a mode\'s tool definitions exceed its token budget (for CI)', load: async () => (await import('./check.js')).checkCommand },
  { name: 'groups', summary: 'Show per tool its groups and why, its modes, and the closest groups of unplaced tools', load: async () => (await import('./groups.js')).groupsCommand },
  { name: 'search', summary: 'Rank catalog tools for a task described in words (offline)', load: async () => (await import('./search.js')).searchCommand },
  { name: 'mode', summary: 'Resolve a phrase ("switch to security review") to a focus mode', load: async () => (await import('./search.js')).modeCommand },
  { name: 'lock', summary: 'Record every upstream\'s tools in lazytools.lock.json (or --check it for drift)', load: async () => (await import('./lock.js')).lockCommand },
  { name: 'stats', summary: 'Show recorded tool usage per mode and suggest mode changes', load: async () => (await import('./stats.js')).statsCommand },
  { name: 'auth', summary: 'Sign in to a remote (url) server with OAuth, or show (--status) or forget (--logout) sign-ins', load: async () => (await import('./auth.js')).authCommand },
  { name: 'init', summary: 'Write a .lazytoolsrc.json from an existing client\'s MCP servers', load: async () => (await import('./init.js')).initCommand },
];

const version = VERSION;

/** Characters of an unexpected error's message printed. */
const UNEXPECTED_CHARS = 2_000;

/**
 * Runs the CLI: `lazytools <command> [options]`. Returns the exit code; config and usage errors
 * print one clear message (no stack trace) and return 2.
 */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  // `lazytools help status` is `lazytools status --help`, as git and npm read it.
  const [name, ...rest] = argv[0] === 'help' && argv[1] !== undefined ? [argv[1], '--help'] : argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(version);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`lazytools: unknown command "${echoName(name)}".${didYouMean(name, commands.map((c) => c.name))}\nRun \`lazytools --help\` for the commands.`);
    return 2;
  }
  const command = await entry.load();
  // Only before `--`: after it every word is an argument (`lazytools search -- -v` searches "-v").
  const end = rest.indexOf('--');
  const flags = end < 0 ? rest : rest.slice(0, end);
  if (flags.includes('--help') || flags.includes('-h')) {
    io.out(`${entry.summary}\n\nUsage: ${command.usage}`);
    return 0;
  }
  if (flags.includes('--version') || flags.includes('-v')) {
    io.out(version);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    // A mode or server named on the command line that the rc lacks (status --mode, auth SERVER) is a usage error too.
    if (error instanceof UsageError || error instanceof UnknownNameError) {
      io.err(`lazytools ${command.name}: ${error.message}\nRun \`lazytools ${command.name} --help\` for its options.`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.err(`lazytools ${command.name}: ${error.message}`);
      return 2;
    }
    // Anything else may quote a server (an SDK error carries the body a server answered with):
    // control characters escaped and the text cut, as every message from outside is.
    io.err(`lazytools ${command.name}: ${outsideText(error instanceof Error ? error.message : String(error), UNEXPECTED_CHARS)}`);
    return 1;
  }
}

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    `lazytools ${version}: show the model only the MCP tools the current work needs`,
    '',
    'Usage: lazytools <command> [options]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `lazytools <command> --help` for a command\'s options.',
  ].join('\n');
}
