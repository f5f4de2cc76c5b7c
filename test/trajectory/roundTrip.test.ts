import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { TrajectoryFormatError, parseTrajectory, serializeTrajectory, type Trajectory } from '../../src/index.js';
import { parseCarefully, readYamlCarefully } from '../../src/trajectory/carefulYaml.js';
import { expectWrittenAgrees } from '../support/writtenAgreement.js';

const corpusFile = 'trajectories/invalid-argument-corrected.yaml';
const base = parseTrajectory(readFileSync(corpusFile, 'utf8'), corpusFile);

/** Every kind of whitespace and line break YAML treats specially, or might: each alone, leading, trailing, between. */
const WHITESPACE = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\n\n',
  '\r\n',
  '\r',
  '\u00a0',
  '\u2028',
  '\u2029',
  '\v',
  '\f',
  '\u0085',
  '\ufeff',
  '\u3000',
  '\u200b',
];
const CONTENT = [
  'a',
  'b c',
  'x: y',
  '- i',
  '# c',
  '|',
  '>',
  '"',
  "'",
  '\\',
  '---',
  '...',
  '1e400',
  '0x1F',
  '-0',
  'null',
  '~',
  'é',
  '\u{1F600}',
];

/** Strings made of whitespace only: every length and mix, so the writer's block and quoted styles all meet it. */
const whitespaceOnly = fc
  .array(fc.constantFrom(...WHITESPACE), { minLength: 1, maxLength: 8 })
  .map((parts) => parts.join(''));
/** Whitespace in every position: leading, trailing, only, between words. */
const whitespaceAround = fc
  .array(fc.oneof(fc.constantFrom(...WHITESPACE), fc.constantFrom(...CONTENT)), { maxLength: 10 })
  .map((parts) => parts.join(''));
const text = fc.oneof(
  whitespaceOnly,
  whitespaceAround,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(' ', '\n', '\t', 'a', '\r'), maxLength: 12 }),
);

/** Every JSON value, with such strings as keys and values, and numbers at their edges. */
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 0, 1e308, -1e308, 5e-324, 2 ** 53, -(2 ** 53), 0.1, 1e21, 1e-7),
);
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A trajectory holding the generated strings and values in every field where strings and free values appear. */
function withValues(strings: string[], values: unknown[]): Trajectory {
  const [system, input, said, thinking, signature, output, reason, description] = strings as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const trajectory: Trajectory = structuredClone(base);
  trajectory.description = description;
  trajectory.request.system = system;
  trajectory.input = input;
  trajectory.tools[0] = {
    ...trajectory.tools[0]!,
    annotations: { title: reason, readOnly: true, destructive: false, idempotent: true, openWorld: false },
    description: said,
    inputSchema: { type: 'object', default: values[1] },
  };
  trajectory.turns[0]!.response.content = [
    { thinking, signature },
    { text: said, citations: [values[1]] },
    { toolUse: { id: 'toolu_1', name: 'add', input: values[0] } },
  ];
  trajectory.turns[0]!.approvals = [{ id: 'toolu_1', approve: false, reason }];
  trajectory.turns[0]!.results = [
    { id: 'toolu_1', tool: 'add', outcome: 'ok', content: output },
    { id: 'toolu_2', tool: 'add', outcome: 'ok', content: [{ type: 'text', text: output }] },
  ];
  return trajectory;
}

describe('the writer and both readers', () => {
  it("round-trip every JSON value and every string of whitespace unchanged, through the writer's and the " +
    'careful reader', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 8, maxLength: 8 }),
        fc.array(json, { minLength: 2, maxLength: 2 }),
        (strings, values) => {
          const trajectory = withValues(strings, values);
          const written = serializeTrajectory(trajectory);
          expectWrittenAgrees(written);
          const carefulRead = parseCarefully(written, 'p.yaml');
          expect(carefulRead).toEqual(trajectory);
          expect(parseTrajectory(written, 'p.yaml')).toEqual(trajectory);
          expect(serializeTrajectory(carefulRead)).toBe(written);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it('writes " \\n" so it reads back as " \\n" (it was written as a block holding only spaces, read as "\\n")', () => {
    for (const value of [' \n', '  \n', ' \n\n', '\t \n', ' \n ', '\u00a0\n', ' \r\n']) {
      const trajectory = withValues(
        [value, value, value, value, value, value, value, value],
        [{ [value]: value }, [value]],
      );
      const written = serializeTrajectory(trajectory);
      expect(parseTrajectory(written, 'p.yaml')).toEqual(trajectory);
      expect(parseCarefully(written, 'p.yaml')).toEqual(trajectory);
    }
  });
});

describe("the writer's reader and the careful reader agree", () => {
  /**
   * Scalars whose type a YAML schema decides, numbers at their edges among them: each must come back as what was
   * written.
   */
  const typed = fc.oneof(
    fc.constantFrom(
      '~',
      'Null',
      'NULL',
      'null',
      'True',
      'FALSE',
      'yes',
      'no',
      'on',
      'off',
      'y',
      '0o17',
      '0O17',
      '0x1F',
      '0X1F',
      '0b101',
      '1_000',
      '+1',
      '+0',
      '-0',
      '-0.0',
      '.5',
      '+.5',
      '1.',
      '1e3',
      '1e400',
      '-1e400',
      '1e-400',
      '1E+400',
      '.inf',
      '-.Inf',
      '+.INF',
      '.NaN',
      '.nan',
      '007',
      '08',
      '0777',
      '1'.padEnd(400, '0'),
      '2026-11-29',
      '12:30:00',
      '1:20',
      '<<',
      '=',
      '!',
      '&a',
      '*a',
      '%x',
      '@x',
      '`x',
      '? x',
      '- x',
      'a #b',
      'a: b',
    ),
    fc.string({ maxLength: 12 }),
    whitespaceAround,
  );
  const scalar = fc.oneof(typed, number, fc.boolean(), fc.constant(null));
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      scalar,
      fc.array(tie('node'), { maxLength: 4 }),
      fc.dictionary(typed, tie('node'), { maxKeys: 4 }),
    ),
  })).node;

  it('on everything the writer writes, exactly as the yaml library reads it', () => {
    fc.assert(
      fc.property(value, typed, (input, said) => {
        const trajectory: Trajectory = structuredClone(base);
        trajectory.turns[0]!.response.content = [{ text: said }, { toolUse: { id: 'toolu_1', name: 'add', input } }];
        const written = serializeTrajectory(trajectory);
        expectWrittenAgrees(written);
        expect(readYamlCarefully(written, 'p.yaml')).toEqual(YAML.parse(written, { schema: 'core' }));
      }),
      { numRuns: 250 },
    );
  }, 120_000);
});

describe('numbers the two readers could read differently', () => {
  const sign = fc.constantFrom('', '+', '-');
  const digits = fc.oneof(
    fc.stringMatching(/^[0-9]{1,4}$/),
    fc.constantFrom('0', '00', '007', '08', '0777', '1'.padEnd(400, '0'), '9'.repeat(309)),
  );
  const body = fc.oneof(
    digits,
    fc.tuple(digits, digits).map(([a, b]) => `${a}.${b}`),
    digits.map((d) => `.${d}`),
    digits.map((d) => `${d}.`),
    fc.constantFrom(
      '0x1F',
      '0X1F',
      '0xFFFFFFFFFFFFFFFFFFFFFFFFFFFF',
      `0x${'F'.repeat(300)}`,
      '0o17',
      '0O17',
      '0o8',
      '0b101',
      '.inf',
      '.Inf',
      '.INF',
      '.nan',
      '.NaN',
      '.NAN',
      'inf',
      'nan',
      '1_000',
    ),
  );
  const exponent = fc.constantFrom(
    '',
    'e5',
    'E5',
    'e+5',
    'e-5',
    'e308',
    'e309',
    'e400',
    'E+400',
    'e-400',
    'e-324',
    'e99999',
  );
  const token = fc.tuple(sign, body, exponent).map(([s, b, e]) => `${s}${b}${e}`);

  it("are read the same by the writer's reader and the careful one, or refused with a location", () => {
    const text = serializeTrajectory(
      withValues(['s', 'i', 't', 'th', 'sig', 'o', 'r', 'd'], [{ n: 'PLACEHOLDER' }, null]),
    );
    fc.assert(
      fc.property(token, (written) => {
        const edited = text.replace('n: PLACEHOLDER', `n: ${written}`);
        expectWrittenAgrees(edited);
        let careful: Trajectory | TrajectoryFormatError;
        try {
          careful = parseCarefully(edited, 'n.yaml');
        } catch (error) {
          if (!(error instanceof TrajectoryFormatError)) throw error;
          careful = error;
        }
        if (careful instanceof TrajectoryFormatError) {
          expect(careful.line).toBeDefined();
          expect(() => parseTrajectory(edited, 'n.yaml')).toThrow(careful.message);
        } else {
          expect(parseTrajectory(edited, 'n.yaml')).toEqual(careful);
          const value = (careful.turns[0]!.response.content[2] as { toolUse: { input: { n: unknown } } }).toolUse.input
            .n;
          if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('refuses a number that is not finite, in either reader, at its line and column', () => {
    const text = serializeTrajectory(
      withValues(['s', 'i', 't', 'th', 'sig', 'o', 'r', 'd'], [{ n: 'PLACEHOLDER' }, null]),
    );
    for (const written of ['1e400', '-1e400', '.inf', '-.Inf', '.nan', `0x${'F'.repeat(300)}`]) {
      const edited = text.replace('n: PLACEHOLDER', `n: ${written}`);
      const error = (() => {
        try {
          parseTrajectory(edited, 'n.yaml');
        } catch (caught) {
          return caught as TrajectoryFormatError;
        }
        throw new Error(`${written} was accepted`);
      })();
      expect(error).toBeInstanceOf(TrajectoryFormatError);
      expect(error.problem).toContain('is not a finite number');
      const line = edited.split('\n')[error.line! - 1]!;
      expect(line.slice(error.column! - 1)).toBe(written);
    }
  });

  it('keeps the strings the writer writes for such numbers as strings, in both readers', () => {
    fc.assert(
      fc.property(token, (written) => {
        const trajectory = withValues(
          ['s', 'i', 't', 'th', 'sig', 'o', 'r', 'd'],
          [{ n: written, [written]: [written] }, written],
        );
        const text = serializeTrajectory(trajectory);
        expect(parseTrajectory(text, 'n.yaml')).toEqual(trajectory);
        expect(parseCarefully(text, 'n.yaml')).toEqual(trajectory);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
