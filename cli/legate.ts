#!/usr/bin/env node
import { processIo } from './io.js';
import { describeUnexpected } from './describeError.js';
import { main } from './main.js';
import { registerTypeScriptForThread } from '../src/files/importModule.js';

const io = processIo();
// This process is the command's own: a TypeScript config or module is read with tsx registered for the whole process,
// not in a namespace that would load legate and its dependencies a second time.
registerTypeScriptForThread();
// An error nobody awaited (a module's stray rejection, a timer that throws) ends the process as Node would, but said
// in one line like every other error, unless LEGATE_DEBUG=1 asks for the stack.
const lastResort = (error: unknown) => {
  io.err(`legate: ${describeUnexpected(error)}`);
  process.exit(1);
};
process.on('uncaughtException', lastResort);
process.on('unhandledRejection', lastResort);
// The command's verdict is its exit code. A module it loads (a user's config, a tool's dependency) may hold an exit
// hook that ends the process with 0 (async-exit-hook does, on 'beforeExit'): no hook may turn a failure into success.
const keepFailure = (verdict: number) => {
  process.exitCode = verdict;
  process.on('exit', (code) => {
    if (code === 0 && verdict !== 0) process.exitCode = verdict;
  });
};
main(process.argv.slice(2), io).then(
  (code) => keepFailure(code),
  (error: unknown) => {
    // main answers every error itself; this is the last resort, held to the same rule: one line unless LEGATE_DEBUG=1.
    io.err(`legate: ${describeUnexpected(error)}`);
    keepFailure(1);
  },
);
