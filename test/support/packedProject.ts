// Used through packedProjectCache.ts: legate packed as npm publishes it, installed into a new project.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

type LockEntry = {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
};
type Manifest = LockEntry & { name: string; version: string };

/** A hang guard for npm, not a speed check. */
const HANG = 240_000;

/** What `npm pack` ships: the build's inputs and the files listed in package.json. */
export const PACKED_INPUTS = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
  'README.md',
  'src',
  'cli',
  'examples',
  'schema',
  'docs',
  'bin',
];

/**
 * Packs a copy of the working tree (so the build `npm pack` runs writes nothing into the
 * repository, and no other test's build races with it) and returns the tarball's path.
 */
export function packLegate(root: string, work: string): string {
  const copy = join(work, 'source');
  for (const path of PACKED_INPUTS) cpSync(join(root, path), join(copy, path), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const pack = ['pack', '--json', '--pack-destination', work];
  const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
  const output = execFileSync('npm', pack, { cwd: copy, encoding: 'utf8', stdio, timeout: HANG });
  // npm prints the build's own output on stdout before the JSON.
  const [packed] = JSON.parse(output.slice(output.indexOf('\n[') + 1)) as { filename: string }[];
  return join(work, packed!.filename);
}

/** The lock entry a package named `name` gets, seen from `from` (node's lookup, up the tree). */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ; ) {
    const candidate = `${base === '' ? '' : `${base}/`}node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (base === '') return undefined;
    const parent = base.lastIndexOf('/node_modules/');
    base = parent < 0 ? '' : base.slice(0, parent);
  }
}

/** What npm installs for a package: its dependencies, optional ones, and the peers not marked optional. */
function needs(entry: LockEntry): string[] {
  const optional = (name: string) => entry.peerDependenciesMeta?.[name]?.optional === true;
  const peers = Object.keys(entry.peerDependencies ?? {}).filter((name) => !optional(name));
  return [...Object.keys(entry.dependencies ?? {}), ...Object.keys(entry.optionalDependencies ?? {}), ...peers];
}

/**
 * A lockfile for a new project that has no dependencies yet, holding the packages the tarball's own manifest asks
 * npm for, at the versions legate's lockfile pins (so their tarballs are in the npm cache `npm ci` filled, and
 * `npm install --offline <tarball>` finds them without asking the registry). A package the manifest asks for that
 * legate's lockfile lacks is left out, and the install then fails on it.
 */
function consumerLock(root: string, manifest: Manifest): object {
  type Lock = { packages: Record<string, LockEntry> };
  const ours = (JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as Lock).packages;
  const packages: Record<string, LockEntry> = { '': { name: 'consumer' } };
  const pending = needs(manifest).map((name) => locate(ours, '', name));
  while (pending.length > 0) {
    const location = pending.pop();
    if (location === undefined || packages[location] !== undefined) continue;
    // Whether a package is a dev one in legate's tree says nothing about the consumer's.
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = ours[location]!;
    packages[location] = entry;
    pending.push(...needs(entry).map((name) => locate(ours, location, name)));
  }
  return { name: 'consumer', lockfileVersion: 3, requires: true, packages };
}

/**
 * A new project in a temporary folder with the tarball installed as an adopter installs it,
 * `npm install <tarball>` (offline), and nothing else: no better-sqlite3, no tsx, no vitest.
 * Returns the project's folder and what npm printed (its warnings: an install script it would
 * run is named there). Install scripts run through a shell that does nothing (`true`): a package
 * that has one (a native build) fails the test that reads the project's lockfile, at once,
 * instead of compiling for minutes, and npm still says what it would have run.
 */
export function installPacked(root: string, work: string, tarball: string): { project: string; output: string } {
  const project = join(work, 'consumer');
  const packed = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
  const manifest = JSON.parse(packed) as Manifest;
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify(consumerLock(root, manifest), null, 2));
  const install = ['install', '--offline', '--no-audit', '--no-fund', '--script-shell=true', tarball];
  const run = spawnSync('npm', install, { cwd: project, encoding: 'utf8', timeout: HANG });
  const output = `${run.stdout}${run.stderr}`;
  if (run.status !== 0) throw new Error(`npm install ${tarball} failed (${run.status ?? run.signal}):\n${output}`);
  return { project, output };
}

/** A temporary folder for one packing. */
export function workFolder(): string {
  return resolve(mkdtempSync(join(tmpdir(), 'legate-pack-')));
}
