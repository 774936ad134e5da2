#!/usr/bin/env node
import { routeConsole } from './console.js';
import { surviveClosedOutput } from './io.js';
import { main } from './main.js';

routeConsole();
surviveClosedOutput();
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // The command is done (serve returns once its gateway has closed): a JS rc that left a timer or
  // socket open must not keep `lazytools check` alive in CI. Exit once what was written drained.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
});
