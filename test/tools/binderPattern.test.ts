import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolDeclarationError, defineTool } from '../../src/index.js';
import { z } from 'zod';
import { fuzzTool } from '../../src/fuzz/fuzzTool.js';
import { probeOutcome } from '../support/probeTool.js';

const noop = () => 'ok';
function patternTool(pattern: string) {
  const tool = defineTool({
    name: 'check',
    description: 'C.',
    input: { type: 'object', properties: { s: { type: 'string', pattern } }, required: ['s'] },
    run: noop,
  });
  return (text: string) => tool.bind({ s: text }).ok;
}

/**
 * Patterns from real tool and API schemas, with where each was found. Each must behave exactly
 * as JavaScript's RegExp (with the `u` flag, as JSON Schema reads patterns) does.
 */
const REAL_WORLD: { pattern: string; from: string }[] = [
  {
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
    from: "a date in many JSON Schemas, e.g. a scheduler tool's run_on (Go) and a law database's promulgation_date",
  },
  {
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{9}Z$',
    from: "a CloudEvents schema's time field",
  },
  {
    pattern: '^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$',
    from: 'a MongoDB $jsonSchema validator (uuid)',
  },
  {
    pattern: '^[A-Za-z0-9]{8}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{12}$',
    from: 'cloudjex/markdowneditor fastapi/models/uuid4_str.py',
  },
  {
    pattern: '[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}',
    from: 'Qarma-inspect/jungle-spec test_lib/id_spex.ex (unanchored)',
  },
  {
    pattern: '[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}',
    from: 'menuchi-project/menuchi-app src/types/TypeAliases.ts (UUID v4)',
  },
  {
    pattern: '^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$',
    from: 'menuchi-project/menuchi-app src/types/TypeAliases.ts (email)',
  },
  {
    pattern:
      '^(https?:\\/\\/)?(www\\.)?[-a-zA-Z0-9@:%._\\+~#=]{1,256}\\.[a-zA-Z0-9()]{1,6}' +
      '\\b([-a-zA-Z0-9()@:%_\\+.~#?&//=]*)$',
    from: 'menuchi-project/menuchi-app src/types/TypeAliases.ts (URL)',
  },
  {
    pattern: '^(\\+98|0)?9\\d{9}$',
    from: 'menuchi-project/menuchi-app src/types/TypeAliases.ts (Iranian phone number)',
  },
  {
    pattern:
      "^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@" +
      '(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$',
    from: 'Antonio-Gabriel/jsonschema_validator src/validator/schema.py (email)',
  },
  {
    pattern: '^[+]?[(]?[0-9]{3}[)]?[-\\s.]?[0-9]{3}[-\\s.]?[0-9]{4,6}$',
    from: 'a TypeScript API type (phone number, @pattern JSDoc)',
  },
  { pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', from: 'a centralised validation-patterns module (email)' },
  { pattern: '^\\+1\\d{10}$', from: 'the same module (US phone, E.164)' },
  {
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$',
    from: 'a Python tool validating a timestamp with jsonschema',
  },
];

/** Constructs whose meaning differs between JavaScript and RE2, written the JavaScript way. */
const SEMANTIC_EDGES = [
  '^\\s+$',
  '^\\S+$',
  '^[\\S]$',
  '^[^\\s]$',
  '^.$',
  '^.+$',
  '^[]$',
  '^[^]$',
  '^\\u{1F600}$',
  '^\\uD83D\\uDE00$',
  '^[\\b]$',
  '^\\cJ$',
  '^[[]$',
  '^(?<year>\\d{4})$',
  '^\\p{Lu}\\p{Ll}+$',
  '^\\p{Letter}+$',
  '^\\p{Script=Greek}+$',
  '^\\P{L}$',
  '^\\p{Emoji_Presentation}$',
  '^\\p{gc=Nd}+$',
  '\\bword\\b',
  '^a|b$',
  '^\\x41\\0$',
  '^[\\w.-]+$',
];

/**
 * Texts likely to sit on the edges of these patterns: pieces of each, whitespace of every kind, astral characters, lone
 * surrogates.
 */
const piece = fc.constantFrom(
  'a',
  'Z',
  '0',
  '9',
  '-',
  '.',
  '@',
  '+',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u00a0',
  '\u2028',
  '\u3000',
  '\ufeff',
  '\u0085',
  '😀',
  '\uD83D',
  '\uDE00',
  'é',
  'Ω',
  'α',
  'f',
  'T',
  'Z',
  ':',
  '/',
  'www.',
  'http://',
  'word',
  '\b',
  '\0',
  'A',
  '(',
  ')',
  '[',
  'x',
);

function textsFor(pattern: string): fc.Arbitrary<string> {
  const regex = new RegExp(pattern, 'u');
  let matches: fc.Arbitrary<string>;
  try {
    matches = fc.stringMatching(regex);
  } catch {
    matches = fc.constant(''); // fast-check cannot generate for \b or an empty class; the other texts still probe it
  }
  const mutated = fc.tuple(matches, fc.nat(40), piece, fc.boolean()).map(([text, at, inserted, replace]) => {
    const points = Array.from(text);
    const i = at % (points.length + 1);
    points.splice(i, replace ? 1 : 0, inserted);
    return points.join('');
  });
  return fc.oneof(
    matches,
    mutated,
    fc.array(piece, { maxLength: 12 }).map((parts) => parts.join('')),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );
}

describe('schema patterns run in linear time', () => {
  it("^(a+)+$ on thirty a's and a ! answers (no), and so does a text of 100,000", () => {
    const bind = patternTool('^(a+)+$');
    expect(bind(`${'a'.repeat(30)}!`)).toBe(false);
    expect(bind('a'.repeat(30))).toBe(true);
    expect(bind(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(patternTool('^(\\w+\\s?)*$')(`${'word '.repeat(20_000)}!`)).toBe(false);
  });

  it.each(REAL_WORLD)('$pattern ($from) behaves as JavaScript RegExp does', ({ pattern }) => expectAsRegExp(pattern));
  it.each(SEMANTIC_EDGES)('%s means what it means in JavaScript', (pattern) => expectAsRegExp(pattern));

  it('can still be fuzzed: fuzzTool generates valid texts for every pattern accepted at definition, and the ' +
    'binder takes them', async () => {
    for (const pattern of [...REAL_WORLD.map((p) => p.pattern), ...SEMANTIC_EDGES.filter((p) => p !== '^[]$')]) {
      const tool = defineTool({
        name: 'check',
        description: 'C.',
        input: { type: 'object', properties: { s: { type: 'string', pattern } }, required: ['s'] },
        run: noop,
      });
      const report = await fuzzTool(tool, { numRuns: 40, seed: 7 });
      expect(report.failures, pattern).toEqual([]);
    }
  }, 60_000);

  it('behaves as JavaScript RegExp on random patterns built from the supported syntax', () => {
    const atom = fc.constantFrom(
      'a',
      'b',
      'Z',
      '0',
      '-',
      '\\.',
      '.',
      '\\s',
      '\\S',
      '\\d',
      '\\D',
      '\\w',
      '\\W',
      '[a-c]',
      '[^ab]',
      '[\\s\\d]',
      '[\\S]',
      '\\u00e9',
      '😀',
      '\\p{L}',
      '\\bx',
    );
    const pattern = fc.letrec<{ expr: string; term: string }>((tie) => ({
      term: fc.oneof(
        { depthSize: 'small' },
        atom,
        fc
          .tuple(tie('term'), fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '*?', '+?'))
          .map(([t, q]) => `(?:${t})${q}`),
        tie('expr').map((e) => `(${e})`),
      ),
      expr: fc.oneof(
        fc.array(tie('term'), { minLength: 1, maxLength: 4 }).map((terms) => terms.join('')),
        fc.tuple(tie('term'), tie('term')).map(([x, y]) => `${x}|${y}`),
      ),
    })).expr;
    const anchored = fc
      .tuple(fc.boolean(), pattern, fc.boolean())
      .map(([start, body, end]) => `${start ? '^' : ''}(?:${body})${end ? '$' : ''}`);
    fc.assert(
      fc.property(
        anchored,
        fc.array(
          fc.array(piece, { maxLength: 8 }).map((parts) => parts.join('')),
          { minLength: 1, maxLength: 8 },
        ),
        (source, texts) => {
          const bind = patternTool(source);
          const regex = new RegExp(source, 'u');
          for (const text of texts) expect(bind(text), `${source} on ${JSON.stringify(text)}`).toBe(regex.test(text));
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it.each([
    ['(?=.*\\d)[a-z\\d]{8,}', "a lookaround ('(?=')"],
    ['^(?!admin).*$', "a lookaround ('(?!')"],
    ['(?<=\\$)\\d+', "a lookaround ('(?<=')"],
    ['(?<!-)\\d+', "a lookaround ('(?<!')"],
    ['^(a)\\1$', "a backreference ('\\1')"],
    ['^(?<q>["\'])x\\k<q>$', "a backreference ('\\k<...>')"],
    ['^a{1001}$', 'repeat counts may be at most 1000'],
    ['^\\p{Script_Extensions=Greek}$', "the Unicode property '\\p{Script_Extensions=Greek}'"],
  ])('refuses at definition %s, which cannot run in linear time (unsupported_pattern)', (pattern, said) => {
    const define = () => patternTool(pattern);
    expect(define).toThrow(ToolDeclarationError);
    try {
      define();
    } catch (error) {
      expect(error).toMatchObject({ code: 'unsupported_pattern', path: 'input.properties.s.pattern' });
      expect((error as Error).message).toContain(said);
    }
  });

  it('leaves to zod the lookaround patterns zod attaches to its own formats, and still checks them', () => {
    const tool = defineTool({
      name: 'host',
      description: 'H.',
      input: z.object({ host: z.hostname(), every: z.iso.duration() }),
      run: noop,
    });
    expect(tool.bind({ host: 'example.com', every: 'P1D' }).ok).toBe(true);
    expect(tool.bind({ host: 'bad host!', every: 'P1D' })).toMatchObject({ ok: false, invalid: { path: ['host'] } });
    expect(tool.bind({ host: 'example.com', every: 'P' })).toMatchObject({ ok: false, invalid: { path: ['every'] } });
    // A pattern of the author's own, in zod, is held to the same rule as in JSON Schema.
    const own = () =>
      defineTool({
        name: 'own',
        description: 'O.',
        input: z.object({ s: z.string().regex(/^(?!admin)\w+$/) }),
        run: noop,
      });
    expect(own).toThrow(expect.objectContaining({ code: 'unsupported_pattern' }));
  });
});

describe('what a pattern matches', () => {
  it('matches a pattern by code points (the u flag): a dot is one whole character', () => {
    expect(['😀', 'a', 'ab'].map((v) => probeOutcome({ type: 'string', pattern: '^.$' }, v))).toEqual([
      'ok',
      'ok',
      'invalid_format',
    ]);
    expect(['é', 'e', '1'].map((v) => probeOutcome({ type: 'string', pattern: '^\\p{L}$' }, v))).toEqual([
      'ok',
      'ok',
      'invalid_format',
    ]);
  });
});

/** The binder accepts exactly the texts `new RegExp(pattern, 'u')` matches, on texts made for the pattern. */
function expectAsRegExp(pattern: string): void {
  const bind = patternTool(pattern);
  const regex = new RegExp(pattern, 'u');
  fc.assert(
    fc.property(textsFor(pattern), (text) => {
      expect(bind(text), JSON.stringify(text)).toBe(regex.test(text));
    }),
    { numRuns: 300 },
  );
}
