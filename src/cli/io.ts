/** Where a command writes: process streams in the binary, buffers in tests. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export const processIO: CliIO = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  cwd: process.cwd(),
  env: process.env,
};

/** A command: parses its argv, calls the library, renders; returns the exit code. */
export interface Command {
  name: string;
  usage: string;
  run(argv: string[], io: CliIO): Promise<number>;
}
