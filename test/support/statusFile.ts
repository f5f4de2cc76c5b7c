// Waiting on a file another process writes, driven by its folder's change events, not a clock: a status a global setup
// hands to test files (written whole, renamed into place), or a log a child process appends to. The test's own
// timeout is the only hang guard.
import { existsSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Writes `text` to `file` in one step: a reader sees no file or the whole text. */
export function writeStatus(file: string, text: string): void {
  writeFileSync(`${file}.partial`, text);
  renameSync(`${file}.partial`, file);
}

/** Resolves with the text of `file` once it is there. */
export function waitForStatus(file: string): Promise<string> {
  return waitForText(file, () => true);
}

/**
 * Resolves once a global setup's status file (the path it provided, `file`) reads `ready`; rejects with what it says
 * instead (why the setup's work failed). Waits on the setup's word, whatever the machine's speed.
 */
export async function setupReady(file: string | undefined, ready: string): Promise<void> {
  if (file === undefined) throw new Error('No global setup: run the tests through vitest.config.ts.');
  const text = await waitForStatus(file);
  if (text !== ready) throw new Error(text);
}

/** Resolves with the text of `file` once it is there and `accept` takes it, read again on each change to it. */
export function waitForText(file: string, accept: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(file), (_event, name) => {
      if (name === null || name === basename(file)) check();
    });
    watcher.on('error', (error) => {
      watcher.close();
      reject(error);
    });
    function check(): void {
      if (!existsSync(file)) return;
      const text = readFileSync(file, 'utf8');
      if (!accept(text)) return;
      watcher.close();
      resolve(text);
    }
    // It may have been written before the watch began.
    check();
  });
}
