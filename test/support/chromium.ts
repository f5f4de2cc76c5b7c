import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/** What the browser tests say when no Chromium is found: where it was looked for and how to get one. */
export const chromiumMissing =
  'Chromium not found: install it with apt-get install -y chromium (or set LEGATE_CHROMIUM)';

/** The flags this machine's closed network needs: no sandbox (root), no background connections. */
const flags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium to drive: LEGATE_CHROMIUM when set (and then only it: a wrong setting is not
 * silently replaced), else /usr/bin/chromium, else `chromium` on PATH; undefined when none is found.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.LEGATE_CHROMIUM;
  if (chosen !== undefined && chosen !== '') return executable(chosen) ? chosen : undefined;
  const onPath = (env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
  return ['/usr/bin/chromium', ...onPath.map((dir) => join(dir, 'chromium'))].find(executable);
}

/**
 * Whether a browser test file runs: with a Chromium, yes; without one, under CI (`CI` set) it
 * fails with `chromiumMissing`, and locally it is skipped with that message printed.
 */
export function chromiumOrSkip(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const found = findChromium(env);
  if (found !== undefined) return found;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false') throw new Error(chromiumMissing);
  console.warn(`${chromiumMissing}. Skipping the browser tests.`);
  return undefined;
}

/**
 * A headless Chromium. Playwright gives each launch a fresh empty profile (its own
 * --user-data-dir, removed on close; it refuses one passed in args).
 */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: flags });
}
