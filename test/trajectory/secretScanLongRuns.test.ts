import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSecret, loadTrajectory, saveTrajectory, type Trajectory } from '../../src/index.js';
import { findSecretInYaml } from '../../src/trajectory/secretScan.js';
import { BUILT_IN_SECRETS } from '../../src/trajectory/builtInSecrets.js';
import { encodedRunsOf } from '../../src/trajectory/encodedRuns.js';
import { firstMatch, compileUserPattern } from '../../src/trajectory/userPattern.js';
import { regexEncodedRuns } from './regexEncodedRuns.js';
import { useTempDir } from '../support/tempDir.js';

// Issue 31: a single run of letters and digits of 8 MiB or more (a base64 image in a tool result, under the 16 MiB
// file limit) overflowed the stack in the secret scan, so the recording was lost.
const MIB = 1024 * 1024;
const FILE_LIMIT = 16 * MIB;
const KEY = 'sk-ant-api03-Zx9Qw7Lm2Np4Rt6Vb8';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** A run of base64 letters `length` long, made by repeating a chunk (cheap at any length). */
const runOf = (chunk: string, length: number) => chunk.repeat(Math.ceil(length / chunk.length)).slice(0, length);
const tempDir = useTempDir();

describe('the secret scan on one run of 8 MiB and more', () => {
  const run = runOf('iVBORw0KGgoAAAANSUhEUgAA', 8 * MIB);

  it('scans an 8 MiB run without error, and finds a key after it, before it, or in base64 within it', () => {
    expect(findSecret(`${run} ${KEY}`)).toMatchObject({ kind: 'api_key', encoding: 'plain', column: run.length + 2 });
    // Glued to the run, the key's characters continue it: the pattern's token is the whole run.
    expect(findSecret(`${KEY}${run}`)).toMatchObject({ kind: 'api_key', encoding: 'plain', column: 1 });
    const hidden = Buffer.from(`key ${KEY}`).toString('base64');
    expect(findSecret(`${run}${hidden}`)).toMatchObject({ kind: 'api_key', encoding: 'base64' });
  });

  it('finds each built-in credential shape before, or not in, an 8 MiB run', () => {
    const [apiKey, bearer, looseBearer] = BUILT_IN_SECRETS.map(({ find }) => find);
    expect(apiKey!(`x sk-ant-${run}`)).toBe(2);
    expect(bearer!(`x Bearer ${run}`)).toBe(2);
    expect(looseBearer!(`x bearer ${run}`)).toBe(2);
    expect(looseBearer!(`x bearer\t${runOf('abc', 8 * MIB)}1`)).toBe(2);
    expect(looseBearer!(`x bearer ${runOf('abc', 8 * MIB)}`)).toBeUndefined();
    expect(looseBearer!(`x bearer${runOf(' ', 8 * MIB)}`)).toBeUndefined();
    expect(looseBearer!(`x bearer+${runOf('bearer+', 8 * MIB)}`)).toBeUndefined();
  });

  it('scans a value holding a run just under the file limit, and finds a key beside it', () => {
    const longest = runOf(BASE64, FILE_LIMIT - 4096);
    expect(findSecretInYaml('', { content: [{ image: longest }, { text: KEY }] })).toMatchObject({
      kind: 'api_key',
      path: 'content[1].text',
    });
  });

  it('saves a trajectory whose tool result holds an 8 MiB run, and refuses one with a key after it', () => {
    const base = loadTrajectory(join('trajectories', readdirSync('trajectories').find((f) => f.endsWith('.yaml'))!));
    const withResult = (content: string): Trajectory => {
      const t = structuredClone(base);
      t.turns[0]!.results ??= [];
      t.turns[0]!.results.push({ id: 'toolu_img', tool: 'screenshot', outcome: 'ok', content });
      return t;
    };
    const file = join(tempDir(), 'image.yaml');
    expect(() => saveTrajectory(file, withResult(run))).not.toThrow();
    expect(() => saveTrajectory(join(tempDir(), 'leak.yaml'), withResult(`${run} ${KEY}`))).toThrow(
      /holds an Anthropic API key/,
    );
  });
});

/** Text rich in what the built-in patterns look for: their words, separators, digits, and token characters. */
const PIECES = [
  'sk-ant-',
  'SK-ANT-',
  'Bearer ',
  'bearer',
  'BEARER',
  ' ',
  '\t',
  '\n',
  '%20',
  '+',
  '%',
  '1',
  '9',
  'a',
  'Z',
  '_',
  '-',
  '.',
  '~',
  '/',
  '=',
  'é',
  '\u200B',
  'QUJD',
  'ff00',
];
const text = (maxPieces: number) =>
  fc
    .tuple(fc.array(fc.constantFrom(...PIECES), { maxLength: maxPieces }), fc.nat({ max: 40 }))
    .map(([pieces, times]) => pieces.join('').repeat(1 + (times % 8)));

describe('the bounded scan finds what the regular expressions find', () => {
  it('each built-in finder gives the index of its pattern’s first match', () => {
    fc.assert(
      fc.property(text(30), (input) => {
        for (const { pattern, find } of BUILT_IN_SECRETS)
          expect(find(input)).toBe(firstMatch(compileUserPattern(pattern), input)?.index);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds the base64 and hex runs the regular expression found (which are then decoded as before)', () => {
    fc.assert(
      fc.property(text(30), (input) => {
        for (const encoding of ['base64', 'hex'] as const)
          expect(encodedRunsOf(input, encoding)).toEqual(regexEncodedRuns(input, encoding));
      }),
      { numRuns: 300 },
    );
  });

  it('finds a key placed after a run of any length up to the file limit, where it was placed', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...BASE64), minLength: 1, maxLength: 64 }),
        fc.integer({ min: 1, max: FILE_LIMIT - 4096 }),
        fc.constantFrom(' ', '\n', '"', ''),
        (chunk, length, gap) => {
          const run = runOf(chunk, length);
          expect(findSecret(`${run}${gap}${KEY}`)).toMatchObject({ kind: 'api_key', column: length + gap.length + 1 });
        },
      ),
      {
        numRuns: 4,
        examples: [
          ['A', 8 * MIB, ''],
          ['Zm9v', FILE_LIMIT - 4096, ' '],
        ],
      },
    );
  });
});
