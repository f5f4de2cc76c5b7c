import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { chromiumMissing, chromiumOrSkip, findChromium } from '../../support/chromium.js';
import { useTempDir } from '../../support/tempDir.js';

const tempDir = useTempDir();

function fakeChromium(): string {
  const path = join(tempDir(), 'chromium');
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

describe('finding the Chromium the browser tests drive', () => {
  it('LEGATE_CHROMIUM names it, and only it: a wrong setting is not replaced by another browser', () => {
    const path = fakeChromium();
    expect(findChromium({ LEGATE_CHROMIUM: path, PATH: '' })).toBe(path);
    expect(findChromium({ LEGATE_CHROMIUM: join(tempDir(), 'absent'), PATH: '/usr/bin' })).toBeUndefined();
  });

  it('a file that is not executable is not a browser', () => {
    const path = fakeChromium();
    chmodSync(path, 0o644);
    expect(findChromium({ LEGATE_CHROMIUM: path })).toBeUndefined();
  });

  it('without one, CI fails with what to install; a local run skips, saying so', () => {
    const missing = { LEGATE_CHROMIUM: join(tempDir(), 'absent') };
    expect(() => chromiumOrSkip({ ...missing, CI: 'true' })).toThrow(
      'Chromium not found: install it with apt-get install -y chromium (or set LEGATE_CHROMIUM)',
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(chromiumOrSkip(missing)).toBeUndefined();
      expect(warn).toHaveBeenCalledWith(`${chromiumMissing}. Skipping the browser tests.`);
    } finally {
      warn.mockRestore();
    }
  });
});
