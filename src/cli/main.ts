import { VERSION } from '../version.js';
import { ConfigError } from '../util/errors.js';
import { UsageError } from './args.js';
import { checkCommand } from './check.js';
import { processIO, type CliIO, type Command } from './io.js';
import { initCommand } from './init.js';
import { lockCommand } from './lock.js';
import { modeCommand, searchCommand } from './search.js';
import { serveCommand } from './serve.js';
import { statsCommand } from './stats.js';
import { statusCommand } from './status.js';

const commands: Command[] = [serveCommand, statusCommand, checkCommand, searchCommand, modeCommand, lockCommand, statsCommand, initCommand];

const version = VERSION;

/**
 * Runs the CLI: `lazytools <command> [options]`. Returns the exit code; config and usage errors
 * print one clear message (no stack trace) and return 2.
 */
export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(version);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`lazytools: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`${command.summary}\n\nUsage: ${command.usage}`);
    return 0;
  }
  if (rest.includes('--version') || rest.includes('-v')) {
    io.out(version);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`lazytools ${command.name}: ${error.message}\n\nUsage: ${command.usage}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.err(`lazytools ${command.name}: ${error.message}`);
      return 2;
    }
    io.err(`lazytools ${command.name}: ${error instanceof Error ? error.message : String(error)}`);
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
