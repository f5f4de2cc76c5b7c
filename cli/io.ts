import { createPaint, type Paint } from './style.js';

/** Where a command writes, so tests can run commands without a terminal. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  paint: Paint;
  cwd: string;
  /** True on a terminal: progress can be redrawn in place. */
  interactive?: boolean;
  /** Redraws a one-line status (a progress bar); cleared by the next `out`. */
  status(text: string): void;
}

export function processIo(): CliIo {
  let statusShown = false;
  const clearStatus = () => {
    if (statusShown) process.stderr.write('\r\x1b[2K');
    statusShown = false;
  };
  return {
    out: (text) => {
      clearStatus();
      process.stdout.write(`${text}\n`);
    },
    err: (text) => {
      clearStatus();
      process.stderr.write(`${text}\n`);
    },
    paint: createPaint(process.stdout),
    cwd: process.cwd(),
    interactive: process.stderr.isTTY === true,
    status: (text) => {
      process.stderr.write(`\r\x1b[2K${text}`);
      statusShown = true;
    },
  };
}
