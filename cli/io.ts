import { createPaint, type Paint } from './style.js';

/** Where a command writes, so tests can run commands without a terminal. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  paint: Paint;
  cwd: string;
}

export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    paint: createPaint(process.stdout),
    cwd: process.cwd(),
  };
}
