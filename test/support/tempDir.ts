import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/** A fresh temporary folder per test, removed afterwards. */
export function useTempDir(): () => string {
  let current: string | undefined;
  afterEach(() => {
    if (current !== undefined) rmSync(current, { recursive: true, force: true });
    current = undefined;
  });
  return () => (current ??= mkdtempSync(join(tmpdir(), 'legate-test-')));
}
