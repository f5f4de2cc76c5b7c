// A status a global setup hands to test files across processes: a file written whole (renamed into place), and a
// wait for it driven by the folder's change events, not a clock. The test's own timeout is the only hang guard.
import { existsSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

/** Writes `text` to `file` in one step: a reader sees no file or the whole text. */
export function writeStatus(file: string, text: string): void {
  writeFileSync(`${file}.partial`, text);
  renameSync(`${file}.partial`, file);
}

/** Resolves with the text of `file` once it is there. */
export function waitForStatus(file: string): Promise<string> {
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
      watcher.close();
      resolve(readFileSync(file, 'utf8'));
    }
    // It may have been written before the watch began.
    check();
  });
}
