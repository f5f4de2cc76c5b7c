// What a process a test started printed and how it ended: read from its streams until they close, whatever the time.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface ChildOutput {
  /** The exit code; null when a signal ended it. */
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Resolves once `child` has ended and its piped output is read (a stream not piped reads as ''). */
export async function childOutput(child: ChildProcess): Promise<ChildOutput> {
  const output = { stdout: '', stderr: '' };
  for (const name of ['stdout', 'stderr'] as const) {
    child[name]?.setEncoding('utf8').on('data', (text: string) => {
      output[name] += text;
    });
  }
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, ...output };
}
