#!/usr/bin/env node
import { routeConsole } from './console.js';
import { surviveClosedOutput } from './io.js';
import { main } from './main.js';

routeConsole();
surviveClosedOutput();
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
