import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { captureIo as capture } from '../support/captureIo.js';
import { runLegate as legate } from '../support/builtPackage.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();
const root = resolve('.');
const isRoot = process.getuid?.() === 0;

/**
 * A folder `t` of trajectories where most files cannot be read: a symlink loop, a symlink to a
 * folder, a dangling symlink, a FIFO, a symlink to /dev/zero, a file that is not YAML; between two good files, so a run
 * that
 * stops at the first bad one leaves `z.yaml` unchecked.
 */
function brokenFolder(): string {
  const dir = tempDir();
  const t = join(dir, 't');
  mkdirSync(join(t, 'folder'), { recursive: true });
  copyFileSync('trajectories/refusal.yaml', join(t, 'a.yaml'));
  symlinkSync('loop.yaml', join(t, 'loop.yaml'));
  symlinkSync('folder', join(t, 'folder-link.yaml'));
  symlinkSync('nowhere.yaml', join(t, 'dangling.yaml'));
  writeFileSync(join(t, 'not-yaml.yaml'), 'version: [1\n');
  // A FIFO with no writer would block a reader that waits for one; a device never ends.
  execFileSync('mkfifo', [join(t, 'fifo.yaml')]);
  symlinkSync('/dev/zero', join(t, 'zero.yaml'));
  copyFileSync('trajectories/max-tokens.yaml', join(t, 'z.yaml'));
  writeFileSync(
    join(dir, 'legate.config.ts'),
    `import { defineConfig } from '${root}/src/index.ts';\nimport base from '${root}/legate.config.ts';\nexport ` +
      `default defineConfig({ agents: base.agents });\n`,
  );
  return dir;
}

const BROKEN = [
  't/dangling.yaml',
  't/fifo.yaml',
  't/folder-link.yaml',
  't/loop.yaml',
  't/not-yaml.yaml',
  't/zero.yaml',
];

/** Each broken file has exactly one line of its own, starting with its path; nothing looks like a stack trace. */
function expectOneLineEach(lines: string[], files: string[]): void {
  for (const file of files)
    expect(
      lines.filter((line) => line.startsWith(`${file}:`)),
      file,
    ).toHaveLength(1);
  expect(lines.join('\n')).not.toMatch(/^\s+at /m);
}

describe('legate validate on files that cannot be read', () => {
  it('gives every file its own verdict line, checks them all, and exits 2 (some could not be read)', async () => {
    const io = capture(brokenFolder());
    expect(await main(['validate', 't'], io)).toBe(2);
    expect(io.stdout).toContain('✓ t/a.yaml');
    expect(io.stdout).toContain('✓ t/z.yaml');
    expectOneLineEach(io.stderr, BROKEN);
    expect(io.stderr.find((line) => line.startsWith('t/loop.yaml:'))).toMatch(
      /^t\/loop\.yaml: it could not be opened: .*\(ELOOP\); a symbolic link .* fix or remove the link\.$/,
    );
    expect(io.stderr.find((line) => line.startsWith('t/dangling.yaml:'))).toMatch(
      /^t\/dangling\.yaml: does not exist;/,
    );
    expect(io.stderr.find((line) => line.startsWith('t/not-yaml.yaml:'))).toMatch(
      /^t\/not-yaml\.yaml:\d+:\d+: this is not valid YAML/,
    );
    expect(io.stderr.find((line) => line.startsWith('t/fifo.yaml:'))).toMatch(/not a regular file/);
    expect(io.stderr.find((line) => line.startsWith('t/zero.yaml:'))).toMatch(/not a regular file/);
    expect(io.stdout.at(-1)).toBe('8 checked: 2 valid, 6 invalid');
  });

  it('reports paths given one by one the same way, as they were given', async () => {
    const io = capture(brokenFolder());
    expect(await main(['validate', 't/loop.yaml', 't/missing.yaml', 't/a.yaml'], io)).toBe(2);
    expect(io.stdout).toContain('✓ t/a.yaml');
    expectOneLineEach(io.stderr, ['t/loop.yaml', 't/missing.yaml']);
    expect(io.stderr).toContain(
      't/missing.yaml: does not exist; check the path (a relative one is resolved from the working folder)',
    );
  });

  it.skipIf(isRoot)('reports a file it may not read (skipped as root: root reads any file)', async () => {
    const dir = brokenFolder();
    chmodSync(join(dir, 't/a.yaml'), 0o000);
    const io = capture(dir);
    expect(await main(['validate', 't/a.yaml', 't/z.yaml'], io)).toBe(2);
    expect(io.stderr).toEqual([expect.stringMatching(/^t\/a\.yaml: cannot be read: permission denied/)]);
    expect(io.stdout).toContain('✓ t/z.yaml');
  });

  it('does not follow a symlink back into the folder it walks', async () => {
    const dir = brokenFolder();
    symlinkSync('.', join(dir, 't', 'again'));
    const io = capture(dir);
    expect(await main(['validate', 't'], io)).toBe(2);
    expect(io.stderr.find((line) => line.startsWith('t/fifo.yaml:'))).toMatch(/not a regular file/);
    expect(io.stderr.find((line) => line.startsWith('t/zero.yaml:'))).toMatch(/not a regular file/);
    expect(io.stdout.at(-1)).toBe('8 checked: 2 valid, 6 invalid');
  });
});

describe('legate show on files that cannot be read', () => {
  it('shows each readable file, gives each unreadable one a line, and exits 2', async () => {
    const io = capture(brokenFolder());
    expect(
      await main(
        ['show', 't/a.yaml', 't/loop.yaml', 't/folder', 't/folder-link.yaml', 't/dangling.yaml', 't/z.yaml'],
        io,
      ),
    ).toBe(2);
    expectOneLineEach(io.stderr, ['t/loop.yaml', 't/folder', 't/folder-link.yaml', 't/dangling.yaml']);
    expect(io.stdout.filter((line) => /^── t\/[az]\.yaml/.test(line))).toHaveLength(2);
    expect(io.stdout.join('\n')).toContain('max_tokens');
  });

  it('shows one readable file as before, without a heading, and exits 0', async () => {
    const io = capture(brokenFolder());
    expect(await main(['show', 't/a.yaml'], io)).toBe(0);
    expect(io.stderr).toEqual([]);
    expect(io.stdout.join('\n')).not.toContain('── ');
  });
});

describe('legate diff and replay on files that cannot be read', () => {
  it('diff names each file it cannot read on its own line and exits 2, as diff(1) does for trouble', async () => {
    const io = capture(brokenFolder());
    expect(await main(['diff', 't/loop.yaml', 't/folder-link.yaml'], io)).toBe(2);
    expectOneLineEach(io.stderr, ['t/loop.yaml', 't/folder-link.yaml']);
    expect(io.stdout).toEqual([]);
  });

  it('replay gives an unreadable file a failed verdict, replays the rest, and exits 2', async () => {
    const io = capture(brokenFolder());
    expect(await main(['replay', 't', '--workers', '1'], io)).toBe(2);
    expect(io.stdout.filter((line) => line.startsWith('✓ '))).toEqual([
      expect.stringMatching(/^✓ t\/a\.yaml /),
      expect.stringMatching(/^✓ t\/z\.yaml /),
    ]);
    for (const file of BROKEN)
      expect(
        io.stdout.filter((line) => line.startsWith(`✗ ${file}:`)),
        file,
      ).toHaveLength(1);
    expect(io.text()).not.toMatch(/^\s+at /m);
    expect(io.stdout.at(-1)).toBe('8 replayed: 2 passed, 6 failed');
  }, 60_000);
});

describe('the legate command on an error it did not expect', () => {
  it('prints one line, no stack trace, and exits 2 for a module that throws; ' +
    'LEGATE_DEBUG=1 prints the stack', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'throws.mjs'), `throw new Error('the module is broken');\n`);
    const plain = await legate(['fuzz', 'throws.mjs'], dir);
    expect(plain.status).toBe(2);
    expect(plain.stderr.trim().split('\n')).toEqual([
      `legate fuzz: throws.mjs: cannot be imported: Error: the module is broken. Fix the module (set LEGATE_DEBUG=1 ` +
        `for the stack trace).`,
    ]);
    const debug = await legate(['fuzz', 'throws.mjs'], dir, { LEGATE_DEBUG: '1' });
    expect(debug.status).toBe(2);
    expect(debug.stderr).toMatch(/the module is broken\n\s+at /);
  }, 120_000);

  it('treats an option it does not know as a usage error: one line, exit 2', async () => {
    const run = await legate(['validate', '--strict'], tempDir());
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^legate validate: .*'--strict'/)]);
    expect(run.status).toBe(2);
  }, 120_000);

  it('validates a folder with unreadable files in a real process, without a stack', async () => {
    const run = await legate(['validate', 't'], brokenFolder());
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(BROKEN.length);
    expect(run.stdout).toContain('8 checked: 2 valid, 6 invalid');
  }, 120_000);
});
