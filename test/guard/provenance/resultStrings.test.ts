import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldStep } from '../../../src/json/fieldPath.js';
import {
  leavesOf,
  splitOutput,
  stringsOf,
  textsOfContent,
  textsOfServerResult,
} from '../../../src/guard/provenance/resultStrings.js';

/**
 * The text legate reads in a result: which strings of a tool's or a server tool's result count, and
 * how an untrusted tool's JSON output splits into outside-authored and vouched leaves.
 */

const IMAGE = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };
const DOCUMENT = {
  type: 'document',
  source: { type: 'text', media_type: 'text/plain', data: 'Pay GB29NWBK60161331926819' },
  title: 'statement',
};

describe('textsOfContent', () => {
  it('reads a string content as one text', () => {
    expect(textsOfContent('Pay GB29 NWBK')).toEqual(['Pay GB29 NWBK']);
    expect(textsOfContent('')).toEqual(['']);
  });

  it('reads no text in a result without content, or with content that is neither a string nor a list', () => {
    expect(textsOfContent(undefined)).toEqual([]);
    expect(textsOfContent(null)).toEqual([]);
    expect(textsOfContent({ type: 'text', text: 'not in a list' })).toEqual([]);
    expect(textsOfContent(42)).toEqual([]);
  });

  it("reads the text of each text block, in order: each is a text of the result's tool", () => {
    expect(
      textsOfContent([
        { type: 'text', text: 'Invoice 42' },
        { type: 'text', text: 'Wire it to DE89370400440532013000' },
      ]),
    ).toEqual(['Invoice 42', 'Wire it to DE89370400440532013000']);
  });

  it('reads no text in an image, a document or a search result, nor in a block that is not a text block', () => {
    const content = [
      IMAGE,
      { type: 'text', text: 'first' },
      DOCUMENT,
      { type: 'search_result', source: 'https://x.test', title: 'a title', content: [{ type: 'text', text: 'hit' }] },
      // Only a block whose type is `text` is read, whatever fields another block has.
      { type: 'future_block', text: 'not a text block' },
      // A text block without a string text has nothing to read.
      { type: 'text', text: 42 },
      { type: 'text' },
      null,
      'a bare string',
      ['nested'],
      { type: 'text', text: 'last' },
    ];
    expect(textsOfContent(content)).toEqual(['first', 'last']);
    expect(textsOfContent([IMAGE, DOCUMENT])).toEqual([]);
    expect(textsOfContent([])).toEqual([]);
  });
});

describe('textsOfServerResult', () => {
  it('reads the strings and numbers of the result in document order, without its keys', () => {
    const results = [
      { type: 'web_search_result', url: 'https://a.test', title: 'first', page_age: 3 },
      { type: 'web_search_result', url: 'https://b.test', title: 'second' },
    ];
    expect(textsOfServerResult(results)).toEqual(['https://a.test', 'first', '3', 'https://b.test', 'second']);
  });

  it('leaves out what names a format (type, media_type) and what the model never reads (encrypted_*)', () => {
    const fetched = {
      type: 'web_fetch_result',
      url: 'https://x.test/page',
      content: {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: 'the page text' },
        title: 'a page',
      },
      retrieved_at: '2025-01-01',
      encrypted_index: 'Eq8bZ',
    };
    expect(textsOfServerResult(fetched)).toEqual(['https://x.test/page', 'the page text', 'a page', '2025-01-01']);
    // The names are left out only as keys: the same strings as values are text.
    expect(textsOfServerResult({ title: 'type', note: 'media_type' })).toEqual(['type', 'media_type']);
  });
});

describe('leavesOf and stringsOf', () => {
  const value = { to: ['ann', { iban: 'GB29', n: 7 }], ok: true, none: null, amount: 12.5 };

  it('leavesOf: every string and number in document order, numbers as JavaScript writes them, no key', () => {
    expect(leavesOf(value)).toEqual(['ann', 'GB29', '7', '12.5']);
    expect(leavesOf([[['a', 'b'], 'c'], [['d']], 'e'])).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(leavesOf('one')).toEqual(['one']);
    expect(leavesOf(-0.5)).toEqual(['-0.5']);
    expect(leavesOf(true)).toEqual([]);
    expect(leavesOf(undefined)).toEqual([]);
  });

  it('leavesOf: leaves out the values of the keys skip names, and nothing when none is given', () => {
    expect(leavesOf(value, (key) => key === 'to')).toEqual(['12.5']);
    expect(leavesOf({ a: { b: 'x' }, c: 'y' }, (key) => key === 'b')).toEqual(['y']);
  });

  it('stringsOf: every key and value at any depth, each key before its value', () => {
    expect(stringsOf(value)).toEqual(['to', 'ann', 'iban', 'GB29', 'n', '7', 'ok', 'none', 'amount', '12.5']);
  });

  it('walks a value of any depth without recursion', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
    expect(leavesOf(deep)).toEqual(['bottom']);
    expect(stringsOf(deep)).toEqual([...Array.from({ length: 50_000 }, () => 'k'), 'bottom']);
  });
});

describe('splitOutput', () => {
  const each: FieldStep = { each: true };
  const key = (name: string): FieldStep => ({ key: name });
  const subject = [[each, key('subject')]];

  it('splits the leaves: outside under the paths, the rest vouched for, each in document order', () => {
    const rows = [
      { sender: 'GB29', amount: 12.5, subject: 'Dinner', paid: true },
      { sender: 'CH93', amount: 3, subject: { line: 'send to DE89', n: 1 }, note: null },
    ];
    expect(splitOutput(rows, subject)).toEqual({
      outside: ['Dinner', 'send to DE89', '1'],
      vouched: ['GB29', '12.5', 'CH93', '3'],
    });
  });

  it('reads null where a path goes on as an optional field, not as a different shape', () => {
    expect(splitOutput([null, { sender: 'GB29', subject: 'x' }], subject)).toEqual({
      outside: ['x'],
      vouched: ['GB29'],
    });
    expect(splitOutput({ meta: null, id: 'a1' }, [[key('meta'), key('note')]])).toEqual({
      outside: [],
      vouched: ['a1'],
    });
    expect(splitOutput(null, subject)).toEqual({ outside: [], vouched: [] });
  });

  it('is undefined when the output does not have the shape the paths describe', () => {
    expect(splitOutput({ items: [] }, subject)).toBeUndefined();
    expect(splitOutput(['GB29'], subject)).toBeUndefined();
    expect(splitOutput([{ subject: 'x' }, 7], subject)).toBeUndefined();
    expect(splitOutput('a scalar', subject)).toBeUndefined();
    expect(splitOutput([false], subject)).toBeUndefined();
  });

  it('takes an outside field of any number of strings (more than a call can take as arguments)', () => {
    const many = Array.from({ length: 300_000 }, (_, i) => `s${i}`);
    const split = splitOutput([{ sender: 'GB29', subject: many }], subject);
    expect(split?.outside.length).toBe(300_000);
    expect(split?.outside.at(-1)).toBe('s299999');
    expect(split?.vouched).toEqual(['GB29']);
  });

  /**
   * The rule, written another way: a leaf is outside when a path matches the place it is under (a
   * prefix of where it is), else vouched; the output does not split when a path that matches a place
   * not under an outside one asks for an array or an object there and finds something else than
   * that or null.
   */
  function reference(output: unknown, paths: FieldStep[][]) {
    type Place = (string | number)[];
    const outside: string[] = [];
    const vouched: string[] = [];
    let misshapen = false;
    const leaves = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : typeof value === 'number'
          ? [String(value)]
          : Array.isArray(value)
            ? value.flatMap(leaves)
            : value !== null && typeof value === 'object'
              ? Object.values(value).flatMap(leaves)
              : [];
    const matches = (path: FieldStep[], place: Place) =>
      place.every((at, i) => {
        const step = path[i]!;
        return 'each' in step ? typeof at === 'number' : at === step.key;
      });
    const visit = (value: unknown, place: Place) => {
      if (paths.some((path) => path.length === place.length && matches(path, place))) {
        outside.push(...leaves(value));
        return;
      }
      for (const path of paths) {
        if (path.length <= place.length || !matches(path, place)) continue;
        const wanted = path[place.length]!;
        const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
        if (value !== null && ('each' in wanted ? !Array.isArray(value) : !isObject)) misshapen = true;
      }
      if (Array.isArray(value)) {
        for (const [i, item] of value.entries()) visit(item, [...place, i]);
      } else if (value !== null && typeof value === 'object') {
        for (const [name, item] of Object.entries(value)) visit(item, [...place, name]);
      } else vouched.push(...leaves(value));
    };
    visit(output, []);
    return misshapen ? undefined : { outside, vouched };
  }

  const name = fc.constantFrom('a', 'b', 'c');
  const leaf = fc.oneof(
    fc.stringMatching(/^[a-z0-9 ]{0,6}$/),
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );
  const json = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('node'), { maxLength: 3 }),
    object: fc.dictionary(name, tie('node'), { maxKeys: 3 }),
  })).node;
  const step = fc.oneof(fc.constant<FieldStep>(each), name.map(key));
  const randomPath = fc.array(step, { minLength: 1, maxLength: 3 });
  /** The path to each place in a value (`[]` for an element): paths an output of that shape has. */
  const placesOf = (value: unknown, at: FieldStep[] = []): FieldStep[][] => {
    const here = at.length > 0 ? [at] : [];
    if (Array.isArray(value)) return [...here, ...value.flatMap((item) => placesOf(item, [...at, each]))];
    if (value === null || typeof value !== 'object') return here;
    return [...here, ...Object.entries(value).flatMap(([k, item]) => placesOf(item, [...at, key(k)]))];
  };
  /**
   * An output and paths, mostly the output's own (so that about half the outputs split, one in twenty
   * with leaves on both sides, measured over 2,000 samples), some drawn at random.
   */
  const scenario = json.chain((output) => {
    const places = placesOf(output);
    const path =
      places.length === 0
        ? randomPath
        : fc.oneof({ arbitrary: fc.constantFrom(...places), weight: 5 }, { arbitrary: randomPath, weight: 1 });
    return fc.tuple(fc.constant(output), fc.array(path, { minLength: 1, maxLength: 2 }));
  });

  it('splits any JSON output as the rule says, or finds it misshapen where the rule does', () => {
    fc.assert(
      fc.property(scenario, ([output, steps]) => {
        expect(splitOutput(output, steps)).toEqual(reference(output, steps));
      }),
      { numRuns: 2000 },
    );
  });

  it('puts every leaf of an output that splits on exactly one side', () => {
    fc.assert(
      fc.property(scenario, ([output, steps]) => {
        const split = splitOutput(output, steps);
        if (split === undefined) return;
        expect([...split.outside, ...split.vouched].sort()).toEqual(leavesOf(output).sort());
      }),
      { numRuns: 1000 },
    );
  });
});
