import type { CliIo } from '../../cli/io.js';

/** A CLI io that keeps what a command prints, uncoloured, for assertions. */
export function captureIo(cwd = process.cwd()): CliIo & { stdout: string[]; stderr: string[]; text(): string } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    cwd,
    out: (text) => void stdout.push(text),
    err: (text) => void stderr.push(text),
    paint: (_style, text) => text,
    status: () => undefined,
    text: () => [...stdout, ...stderr].join('\n'),
  };
}
