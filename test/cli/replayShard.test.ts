import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusKey, parseShard, shardFiles } from '../../cli/replay/shard.js';

// Issue 20: `--shard i/n` gives each file of the corpus to exactly one shard, decided from paths alone.

const paths = fc.uniqueArray(fc.stringMatching(/^[a-z0-9/_-]{1,12}\.yaml$/), { maxLength: 40 });
const split = fc.integer({ min: 1, max: 12 });

describe('shardFiles', () => {
  it('the shards of any corpus hold every file exactly once, in the given order, sizes within one', () =>
    fc.assert(
      fc.property(paths, split, (files, count) => {
        const shards = Array.from({ length: count }, (_, i) => shardFiles(files, (f) => f, { index: i + 1, count }));
        expect(shards.flat().sort()).toEqual([...files].sort());
        for (const shard of shards) expect(shard).toEqual(files.filter((f) => shard.includes(f)));
        const sizes = shards.map((shard) => shard.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    ));

  it('a shard is the same whatever order the files are found in (the same on every machine)', () =>
    fc.assert(
      fc.property(
        paths.chain((files) => fc.tuple(fc.constant(files), fc.shuffledSubarray(files, { minLength: files.length }))),
        split,
        ([files, shuffled], count) => {
          for (let index = 1; index <= count; index++) {
            const one = shardFiles(files, (f) => f, { index, count });
            const other = shardFiles(shuffled, (f) => f, { index, count });
            expect([...other].sort()).toEqual([...one].sort());
          }
        },
      ),
    ));

  it('keys files by their path relative to the project root, with / separators, wherever the command runs', () => {
    expect(corpusKey('t/a.yaml', '/p', '/p')).toBe('t/a.yaml');
    expect(corpusKey('../t/a.yaml', '/p/src', '/p')).toBe('t/a.yaml');
    expect(corpusKey('/p/t/a.yaml', '/elsewhere', '/p')).toBe('t/a.yaml');
  });
});

describe('parseShard', () => {
  it('takes i/n with 1 ≤ i ≤ n', () => {
    expect(parseShard('1/3')).toEqual({ index: 1, count: 3 });
    expect(parseShard('3/3')).toEqual({ index: 3, count: 3 });
  });

  it('refuses anything else with one line saying what it takes and what arrived', () =>
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 })).map(([i, n]) => `${i}/${n}`),
        ),
        (text) => {
          const match = /^(\d+)\/(\d+)$/.exec(text.trim());
          const valid = match !== null && Number(match[1]) >= 1 && Number(match[1]) <= Number(match[2]);
          const parsed = parseShard(text);
          if (valid) expect(parsed).toEqual({ index: Number(match![1]), count: Number(match![2]) });
          else {
            expect(parsed).toEqual(expect.stringContaining(`(e.g. --shard 1/3), but it was '${text}'`));
          }
        },
      ),
    ));
});
