import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSecret, type Redaction } from '../../src/index.js';
import { createRedactor } from '../../src/trajectory/redaction.js';
import { jsonText } from '../../src/json/jsonText.js';
import { isPlainObject } from '../../src/json/jsonValue.js';
import { findSecretInYaml } from '../../src/trajectory/secretScan.js';
import { compileUserPattern } from '../../src/trajectory/userPattern.js';

const DEEP = 20_000;

/** A value `depth` levels deep: arrays, objects, or both in turn, with a leaf at the bottom. */
function nested(depth: number, kind: 'array' | 'object' | 'mixed', leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++)
    value =
      kind === 'array' || (kind === 'mixed' && i % 2 === 0) ? [value] : { k: value, card: { number: '4111 1111' } };
  return value;
}

/**
 * The recursive redactor as it was written before it walked with its own stack: the reference
 * the iterative one must agree with on every value a recursive walk can reach.
 */
function referenceRedactor(redactions: readonly Redaction[]): (value: unknown) => unknown {
  const patterns = redactions
    .filter((r) => 'pattern' in r)
    .map((r) => {
      const { pattern, placeholder = '[REDACTED]' } = r as { pattern: RegExp | string; placeholder?: string };
      const regex = compileUserPattern(pattern);
      return (text: string) => text.replace(regex, placeholder);
    });
  const paths = redactions
    .filter((r): r is { path: string; placeholder?: string } => 'path' in r)
    .map((r) => ({ keys: r.path.split('.').filter(Boolean), placeholder: r.placeholder ?? '[REDACTED]' }));
  const redactText = (text: string) => patterns.reduce((current, replace) => replace(current), text);
  const define = (target: Record<string, unknown>, key: string, value: unknown) =>
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  const replaceAt = (object: Record<string, unknown>, keys: string[], placeholder: string): boolean => {
    let current: unknown = object;
    for (let i = 0; i < keys.length - 1; i++) {
      if (!isPlainObject(current) || !Object.hasOwn(current, keys[i]!)) return false;
      current = current[keys[i]!];
    }
    if (!isPlainObject(current) || !Object.hasOwn(current, keys.at(-1)!)) return false;
    define(current, keys.at(-1)!, placeholder);
    return true;
  };
  const redactJsonText = (text: string): string => {
    const first = text.trimStart()[0];
    if (first !== '{' && first !== '[') return text;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return text;
    }
    let hit = false;
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (isPlainObject(value)) {
        for (const inner of Object.values(value)) visit(inner);
        for (const { keys, placeholder } of paths) hit = replaceAt(value, keys, placeholder) || hit;
      }
    };
    visit(parsed);
    return hit ? JSON.stringify(parsed) : text;
  };
  const redact = (value: unknown): unknown => {
    if (typeof value === 'string') return paths.length === 0 ? redactText(value) : redactJsonText(redactText(value));
    if (Array.isArray(value)) return value.map(redact);
    if (!isPlainObject(value)) return value;
    const entries = Object.entries(value);
    const redactedKeys = entries.map(([key]) => redactText(key));
    const kept = new Set(entries.filter(([key], i) => redactedKeys[i] === key).map(([key]) => key));
    const copy: Record<string, unknown> = {};
    entries.forEach(([key, inner], i) => {
      let name = redactedKeys[i]!;
      if (name !== key) {
        const taken = (n: string) => Object.hasOwn(copy, n) || kept.has(n);
        if (taken(name)) {
          let n = 2;
          while (taken(`${name} (${n})`)) n++;
          name = `${name} (${n})`;
        }
      }
      define(copy, name, redact(inner));
    });
    for (const { keys, placeholder } of paths) replaceAt(copy, keys, placeholder);
    return copy;
  };
  return redact;
}

const words = fc.constantFrom('secret', 'sk-1', 'card', 'number', 'token', 'a', '[REDACTED]', 'x');
const text = fc.oneof(
  words,
  fc.string({ maxLength: 6 }),
  fc.tuple(words, words).map(([a, b]) => `${a} ${b}`),
);
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(words, tie('value'), { maxKeys: 3 }),
    // A tool's object output, carried as JSON text: paths reach inside it.
    tie('value').map((inner) => JSON.stringify({ card: { number: inner }, other: inner })),
  ),
})).value;
const redaction: fc.Arbitrary<Redaction> = fc.oneof(
  words.map((pattern) => ({ pattern })),
  fc.constantFrom<Redaction>({ pattern: /sk-\d/g }, { pattern: /SECRET/iy }, { pattern: /o/ }),
  fc.constantFrom('card.number', 'card', 'token', 'a.card').map((path) => ({ path })),
  fc.tuple(words, words).map(([pattern, placeholder]) => ({ pattern, placeholder })),
);

describe('the redactor walks a value of any depth', () => {
  it(
    'redacts every value exactly as the recursive walk did: strings, keys, key collisions, paths, JSON text ' +
      '(property)',
    () => {
      fc.assert(
        fc.property(value, value, fc.array(redaction, { minLength: 1, maxLength: 4 }), (earlier, input, redactions) => {
          const before = jsonText(input);
          // A redactor remembers what it made of keys and short strings: one that redacted another value first.
          const redact = createRedactor(redactions);
          expect(jsonText(redact(earlier))).toBe(jsonText(referenceRedactor(redactions)(earlier)));
          const redacted = redact(input);
          expect(jsonText(redacted)).toBe(jsonText(referenceRedactor(redactions)(input)));
          expect(Object.keys((redacted as object) ?? {})).toEqual(
            Object.keys((referenceRedactor(redactions)(input) as object) ?? {}),
          );
          expect(jsonText(input)).toBe(before); // the original is untouched
        }),
        { numRuns: 500 },
      );
    },
  );

  it.each(['array', 'object', 'mixed'] as const)(
    'redacts a %s value nested 20,000 deep, patterns and paths, without a RangeError',
    (kind) => {
      const redact = createRedactor([{ pattern: /sk-test-\d+/ }, { path: 'card.number' }]);
      const deep = nested(DEEP, kind, 'sk-test-42 at the bottom');
      const redacted = redact(deep);
      const written = jsonText(redacted)!;
      expect(written).toContain('[REDACTED] at the bottom');
      expect(written).not.toMatch(/sk-test-|4111/);
      expect(jsonText(deep)).toContain('sk-test-42'); // the original is untouched
      // A tool's output written as JSON text, 20,000 deep: the path reaches inside it.
      const inText = redact(jsonText(nested(DEEP, kind, 'leaf')));
      expect(inText).not.toContain('4111');
    },
  );

  it('refuses a value that contains itself with a TypeError, as JSON does', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { again: cyclic };
    expect(() => createRedactor([{ pattern: 'x' }])(cyclic)).toThrow(TypeError);
    const shared = { token: 'sk-1' };
    expect(createRedactor([{ pattern: 'sk-1' }])({ a: shared, b: [shared] })).toEqual({
      a: { token: '[REDACTED]' },
      b: [{ token: '[REDACTED]' }],
    });
  });
});

describe('the secret scan walks a value of any depth', () => {
  it.each(['array', 'object', 'mixed'] as const)(
    'finds a secret at the bottom of a %s value 20,000 deep, with its full path',
    (kind) => {
      // The value a trajectory is written from, its text clean: the path has a segment a level, `[0]` or `k`.
      const found = findSecretInYaml('', nested(DEEP, kind, `the key is sk-ant-api03-${'A'.repeat(40)}`));
      expect(found?.path?.match(/\[0\]|k/g)).toHaveLength(DEEP);
      expect(found?.path?.startsWith(kind === 'array' ? '[0]' : 'k')).toBe(true);
      expect(findSecret(jsonText(nested(DEEP, kind, 'clean'))!)).toBeUndefined();
    },
  );
});
