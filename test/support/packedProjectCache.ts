// legate packed and installed once per content of what is packed, shared by the test files that need an
// installed legate (test/packedInstall.test.ts, test/usingLegate.test.ts): each gets its own copy of the project.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { installPacked, PACKED_INPUTS, packLegate } from './packedProject.js';

/** A hang guard for waiting on another test file's packing, not a speed check. */
const HANG = 480_000;
/** Packings older than this, of other contents, are removed when a new one is made. */
const STALE_MS = 3_600_000;
const PREFIX = 'legate-packed-';
/** What `npm install <tarball>` printed, kept beside the project (and beside each copy of it). */
const INSTALL_OUTPUT = 'npm-install.txt';

/**
 * A copy, in `work`, of a new project with legate's tarball installed (see installPacked), made
 * from a packing of the working tree's current content. The first test file to ask packs and
 * installs; one that asks meanwhile waits for it; later ones (in this run or the next, while
 * nothing packed changed) copy. Returns the copy's folder.
 */
export async function packedProjectCopy(root: string, work: string): Promise<string> {
  const cache = join(tmpdir(), `${PREFIX}${digestOfInputs(root)}`);
  const lock = `${cache}.lock`;
  const ready = join(cache, 'ready');
  for (const deadline = Date.now() + HANG; !existsSync(ready); ) {
    if (tryLock(lock)) {
      try {
        if (!existsSync(ready)) build(root, cache);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    } else {
      if (Date.now() > deadline) throw new Error(`waited too long for another test file's packing (${lock})`);
      await sleep(250);
    }
  }
  const now = new Date();
  utimesSync(cache, now, now); // in use: not stale
  const copy = join(work, 'consumer');
  cpSync(join(cache, 'consumer'), copy, { recursive: true, verbatimSymlinks: true });
  cpSync(join(cache, INSTALL_OUTPUT), join(work, INSTALL_OUTPUT));
  return copy;
}

/** What npm printed installing the tarball into the project packedProjectCopy copied into `work`. */
export function packedInstallOutput(work: string): string {
  return readFileSync(join(work, INSTALL_OUTPUT), 'utf8');
}

/** Packs and installs into the cache (what a crashed build left is removed first); `ready` is written last. */
function build(root: string, cache: string): void {
  removeStale();
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(cache);
  const { output } = installPacked(root, cache, packLegate(root, cache));
  writeFileSync(join(cache, INSTALL_OUTPUT), output);
  rmSync(join(cache, 'source'), { recursive: true, force: true });
  writeFileSync(join(cache, 'ready'), '');
}

/** Takes the lock, or takes over one whose owner has died; false while a live process holds it. */
function tryLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const owner = Number(readIfThere(join(lock, 'pid')));
  if (Number.isInteger(owner) && owner > 0 && !alive(owner)) rmSync(lock, { recursive: true, force: true });
  return false;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * What the packing depends on: every file npm pack builds from, the lockfile the install follows, and how it packs
 * and installs.
 */
function digestOfInputs(root: string): string {
  const hash = createHash('sha256');
  for (const input of [...PACKED_INPUTS, 'package-lock.json', 'test/support/packedProject.ts']) {
    const path = join(root, input);
    const files = statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true, encoding: 'utf8' })
          .map((name) => join(input, name))
          .filter((name) => statSync(join(root, name)).isFile())
          .sort()
      : [input];
    for (const file of files)
      hash
        .update(`${file}\0`)
        .update(readFileSync(join(root, file)))
        .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function removeStale(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX) || name.endsWith('.lock') || existsSync(join(tmpdir(), `${name}.lock`))) continue;
    const path = join(tmpdir(), name);
    if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}
