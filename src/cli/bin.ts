#!/usr/bin/env node
import { routeConsole } from './console.js';
import { main } from './main.js';

routeConsole();
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
