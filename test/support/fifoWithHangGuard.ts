import { execFileSync, spawn } from 'node:child_process';
import { afterEach } from 'vitest';

/**
 * Makes FIFOs for a test file, each with a writer that releases a reader blocked on it after a while: a blocking read
 * stops the whole thread, so no test timeout could end it. A reader that waits fails on what it read (`{}`) instead of
 * hanging the suite; a reader that refuses the FIFO never opens it, and its writer is ended after the test.
 */
export function useFifoWithHangGuard(): (path: string) => void {
  const writers: number[] = [];
  afterEach(() => {
    for (const pid of writers.splice(0)) {
      try {
        process.kill(-pid);
      } catch {
        // It already wrote and ended: only then did a reader open the FIFO.
      }
    }
  });
  return (path) => {
    execFileSync('mkfifo', [path]);
    const writer = spawn('sh', ['-c', 'sleep 10; printf "{}" > "$0"', path], { stdio: 'ignore', detached: true });
    writers.push(writer.pid!);
  };
}
