import fc from 'fast-check';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadTrajectory, type AgentFactory } from '../../src/index.js';
import { FindingOutputError, fuzzInjection } from '../../src/fuzz/index.js';
import { findingFile } from '../../src/fuzz/findingFile.js';
import { useTempDir } from '../support/tempDir.js';
import { LEAKED_SECRET, SECRET_PATTERN, leakyAgent } from './leakyAgent.js';

const tempDir = useTempDir();

function isInside(folder: string, file: string): boolean {
  const path = relative(resolve(folder), resolve(file));
  return path !== '' && !path.startsWith('..') && !path.includes(sep) && resolve(folder, path) === resolve(file);
}

/** Counts the agents a factory builds: zero means nothing was fuzzed. */
function counted(factory: AgentFactory): { factory: AgentFactory; built: () => number } {
  let built = 0;
  return {
    factory: (transport) => {
      built++;
      return factory(transport);
    },
    built: () => built,
  };
}

describe('fuzzInjection findings and the mode in force', () => {
  it('writes a finding whatever LEGATE_MODE says: a finding is new, there is nothing to replay', async () => {
    for (const mode of ['replay', 'passthrough', 'auto']) {
      vi.stubEnv('LEGATE_MODE', mode);
      try {
        const out = tempDir();
        const report = await fuzzInjection(leakyAgent('leaky'), {
          numRuns: 20,
          seed: 4,
          out,
          redactions: [{ pattern: SECRET_PATTERN }],
        });
        const [failure] = report.failures;
        expect(failure!.writeError, mode).toBeUndefined();
        expect(existsSync(failure!.trajectory!), mode).toBe(true);
      } finally {
        vi.unstubAllEnvs();
      }
    }
  });
});

describe('fuzzInjection findings and the secrets of the config', () => {
  it('redacts a declared secret from the finding it writes', async () => {
    const out = tempDir();
    const report = await fuzzInjection(leakyAgent('leaky'), {
      numRuns: 20,
      seed: 4,
      out,
      secrets: [SECRET_PATTERN],
      redactions: [{ pattern: SECRET_PATTERN }],
    });
    const [failure] = report.failures;
    expect(failure?.message).toMatch(/'lookup' was attempted \d+ times?, over its limit of 0/);
    expect(failure!.writeError).toBeUndefined();
    const text = readFileSync(failure!.trajectory!, 'utf8');
    expect(text).toContain('api key [REDACTED]');
    expect(text).not.toContain(LEAKED_SECRET);
    expect(loadTrajectory(failure!.trajectory!).expect?.blocked).toEqual([
      expect.objectContaining({ tool: 'lookup', rule: 'limit' }),
    ]);
  });

  it('refuses to write a finding that holds a declared secret it may not redact, and still reports it', async () => {
    const out = tempDir();
    const report = await fuzzInjection(leakyAgent('leaky'), { numRuns: 20, seed: 4, out, secrets: [SECRET_PATTERN] });
    const [failure] = report.failures;
    expect(failure?.trajectory).toBeUndefined();
    expect(failure?.writeError).toMatch(/holds declared secret #1, so it was not saved/);
    expect(failure).toMatchObject({
      seed: 4,
      path: expect.any(String),
      counterexample: expect.objectContaining({ input: expect.any(String) }),
    });
    expect(readdirSync(out)).toEqual([]);
  });
});

describe('where fuzzInjection writes its findings', () => {
  it.each([
    ['empty', '', 'empty_folder'],
    ['blank', '  ', 'empty_folder'],
  ] as const)('refuses an %s out folder before it fuzzes anything', async (_kind, out, code) => {
    const { factory, built } = counted(leakyAgent('leaky'));
    const error = await fuzzInjection(factory, { numRuns: 5, seed: 1, out }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FindingOutputError);
    expect(error).toMatchObject({ code });
    expect(built()).toBe(0);
  });

  it('refuses an out folder that is a file, or lies under one, before it fuzzes anything', async () => {
    const file = join(tempDir(), 'notes.txt');
    writeFileSync(file, 'not a folder');
    for (const out of [file, join(file, 'fuzz')]) {
      const { factory, built } = counted(leakyAgent('leaky'));
      const error = await fuzzInjection(factory, { numRuns: 5, seed: 1, out }).catch((e: unknown) => e);
      expect(error, out).toBeInstanceOf(FindingOutputError);
      expect(error, out).toMatchObject({ code: 'not_a_folder', message: expect.stringContaining(file) });
      expect(built(), out).toBe(0);
    }
  });

  it('keeps a finding of an agent named ../../escaped inside the out folder', async () => {
    const out = join(tempDir(), 'a', 'b');
    const report = await fuzzInjection(leakyAgent('../../escaped'), { numRuns: 20, seed: 4, out });
    const file = report.failures[0]!.trajectory!;
    expect(isInside(out, file)).toBe(true);
    expect(basename(file)).toMatch(/^escaped-[0-9a-f]{8}-\d+\.yaml$/);
    expect(existsSync(join(out, '..', '..', basename(file)))).toBe(false);
    expect(loadTrajectory(file).agent).toBe('../../escaped');
  });

  it('writes any agent name inside the out folder, without throwing', async () => {
    const out = join(tempDir(), 'out');
    const awkward = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
      fc.constantFrom(
        '..',
        '../..',
        '/etc/passwd',
        '..\\..\\win',
        'a\0b',
        'x'.repeat(5000),
        '.hidden',
        'CON',
        'a/../../b',
        '\u202e.yaml',
        '~',
      ),
      fc
        .array(fc.constantFrom('..', '/', '\\', '\0', '.', 'é', '😀', 'A'), { minLength: 1, maxLength: 30 })
        .map((parts) => parts.join('')),
    );
    await fc.assert(
      fc.asyncProperty(
        awkward.filter((name) => name.trim() !== ''),
        async (name) => {
          const report = await fuzzInjection(leakyAgent(name), { numRuns: 3, seed: 4, out });
          const file = report.failures[0]!.trajectory!;
          expect(report.failures[0]!.writeError).toBeUndefined();
          expect(isInside(out, file)).toBe(true);
          expect(loadTrajectory(file).agent).toBe(name);
        },
      ),
      { numRuns: 25, seed: 12 },
    );
  }, 120_000);
});

describe('findingFile', () => {
  const folder = join('trajectories', 'fuzz');

  it('keeps a plain name as it is', () => {
    expect(findingFile(folder, 'assistant', 42)).toBe(join(folder, 'assistant-42.yaml'));
  });

  it('is inside the folder, a short plain file name, for every name', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.integer(), (name, seed) => {
        const file = findingFile(folder, name, seed);
        expect(dirname(file)).toBe(folder);
        expect(basename(file)).toMatch(/^[a-z0-9_-]{1,64}(-[0-9a-f]{8})?-\d+\.yaml$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives different names different files, also on a file system that ignores case', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        (a, b) => {
          fc.pre(a !== b);
          expect(findingFile(folder, a, 1).toLowerCase()).not.toBe(findingFile(folder, b, 1).toLowerCase());
        },
      ),
      { numRuns: 2000 },
    );
    expect(findingFile(folder, 'Assistant', 1)).not.toBe(findingFile(folder, 'assistant', 1));
    expect(findingFile(folder, 'a/b', 1)).not.toBe(findingFile(folder, 'a-b', 1));
  });

  it('writes inside a folder given as an absolute path too', () => {
    const out = tempDir();
    mkdirSync(out, { recursive: true });
    expect(isInside(out, findingFile(out, '../../x', 7))).toBe(true);
  });
});
