#!/usr/bin/env node
import { processIo } from './io.js';
import { main } from './main.js';

const io = processIo();
main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    io.err(`legate: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
