#!/usr/bin/env node
import { processIo } from './io.js';
import { describeUnexpected } from './describeError.js';
import { main } from './main.js';

const io = processIo();
main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // main answers every error itself; this is the last resort, held to the same rule: one line unless LEGATE_DEBUG=1.
    io.err(`legate: ${describeUnexpected(error)}`);
    process.exitCode = 1;
  },
);
