import { readFileSync, readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  Agent,
  ScriptedTransport,
  TrajectoryFormatError,
  defineTool,
  parseTrajectory,
  reply,
  runTrajectory,
  serializeTrajectory,
  type Trajectory,
} from '../../src/index.js';
import { readWrittenYaml } from '../../src/trajectory/writtenYaml.js';
import { caught } from '../support/caught.js';
import { useTempDir } from '../support/tempDir.js';
import { expectWrittenAgrees } from '../support/writtenAgreement.js';

const corpusNames = readdirSync('trajectories').filter((name) => name.endsWith('.yaml'));
const corpusFile = 'trajectories/invalid-argument-corrected.yaml';
const corpus = readFileSync(corpusFile, 'utf8');
const base = parseTrajectory(corpus, corpusFile);

/** The corpus file with a tool's input (a free value, written as the writer writes any JSON) and a text replaced. */
function writtenWith(input: unknown, said: string): string {
  const trajectory: Trajectory = structuredClone(base);
  trajectory.input = said;
  trajectory.turns[0]!.response.content = [{ text: said }, { toolUse: { id: 'toolu_1', name: 'add', input } }];
  return serializeTrajectory(trajectory);
}

/** Text as people and models write it: letters, digits, punctuation, unicode, single spaces and line breaks. */
const ordinaryText = fc
  .array(
    fc.oneof(
      fc.constantFrom('a', 'Z', '7', '-', ':', '#', "'", '"', '\\', ',', '{', '}', '[', ']', '|', '>', '*', '&', '!'),
      fc.constantFrom('é', '日本', '\u{1F600}', 'null', 'true', '12', '0.5', '1e3', ' ', '\n', '\n\n', '\t'),
    ),
    { maxLength: 14 },
  )
  .map((parts) => parts.join(''))
  // Text starting or ending in blanks, or with blank lines of spaces: see blankText.
  .filter((text) => !/^\s|\s$/.test(text) && !/[ \t]\n/.test(text));
/**
 * Text with blanks anywhere, as a model streams it in pieces (` 68°F\n- **`, `\n\n`): the writer writes a literal
 * block with an indentation indicator (`|2-`), or with blank lines of spaces (a leading one indented), or of line
 * breaks only (`|+`), or, where it ends in spaces, a quoted scalar.
 */
const blankText = fc
  .array(fc.constantFrom('a', 'b c', '- x', '#', ' ', '  ', '\n', '\n\n', '\t'), { maxLength: 10 })
  .map((parts) => parts.join(''));
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    ordinaryText,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(ordinaryText, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe("the writer's reader", () => {
  it.each(corpusNames)('reads %s, exactly as the reference reader does', (name) => {
    expect(expectWrittenAgrees(readFileSync(`trajectories/${name}`, 'utf8'))).toBe(true);
  });

  const dir = useTempDir();
  it('reads a run recorded to a file (tool results as JSON text, usage on one line)', async () => {
    const lookup = defineTool({
      name: 'lookup_record',
      description: 'Looks up a record by id.',
      input: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      run: ({ id }) => ({ id, status: 'open', notes: 'Checked: "all" #1.' }),
    });
    const file = join(dir(), 'run.yaml');
    await runTrajectory({
      file,
      agent: (transport) => new Agent({ name: 'a', model: 'claude-haiku-5-5', tools: [lookup], transport }),
      input: 'Check record 7.',
      mode: 'record',
      transport: () =>
        new ScriptedTransport([reply.toolUse('lookup_record', { id: 7 }, { text: 'Checking.' }), reply.text('Done.')]),
    });
    expect(expectWrittenAgrees(readFileSync(file, 'utf8'))).toBe(true);
  });

  it('reads every trajectory the writer writes with ordinary text and any JSON value, as the reference does', () => {
    fc.assert(
      fc.property(json, ordinaryText, (input, said) => {
        const written = writtenWith(input, said);
        expect(expectWrittenAgrees(written)).toBe(true);
        expect(expectWrittenAgrees(written.replaceAll('\n', '\r\n'))).toBe(true);
        expect(parseTrajectory(written, 'p.yaml')).toEqual(
          parseTrajectory(written.replace('version: 1', 'version: 1 '), 'p.yaml'), // a trailing space: declined
        );
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('reads every text with blanks the writer writes, anywhere in the file, as the reference does', () => {
    const blankJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        blankText,
        fc.integer(),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('k', 'l'), tie('value'), { maxKeys: 2 }),
      ),
    })).value;
    fc.assert(
      fc.property(blankJson, blankText, (input, said) => {
        const written = writtenWith(input, said);
        expect(expectWrittenAgrees(written)).toBe(true);
        expect(expectWrittenAgrees(written.replaceAll('\n', '\r\n'))).toBe(true);
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('declines or agrees on texts the writer never writes', () => {
    const edit = fc.tuple(
      fc.nat(),
      fc.nat({ max: 6 }),
      fc.constantFrom(' ', '  ', '\n', '- ', ': ', '#', '"', "'", '\\', '|', '|-', '|+', '{', '}', '[', ']', ',', '&a'),
      fc.constantFrom('*a', '!t', '\t', '\r\n', '\ufeff', '~', 'null', '0x1F', '-0', '1e400', '.inf', '"\\x41"', ''),
    );
    const written = writtenWith({ list: [1, 'two', { three: 3 }], text: 'a\nb\n' }, 'ordinary words');
    expectEditsDeclinedOrAgreed(written, edit, 0);
  }, 60_000);

  it('declines or agrees on literal blocks edited where their indentation and blank lines are', () => {
    const edit = fc.tuple(
      fc.nat(),
      fc.nat({ max: 4 }),
      fc.constantFrom(' ', '  ', '      ', '\t', '\n', '\n\n', '    \n', ' \n', '  \n  ', '|', '|-', '|+', '|2', '|1'),
      fc.constantFrom('', '|9', '|2-', '|3+', '-', '+', 'x', '1', '#'),
    );
    const input = {
      a: ' x\ny',
      b: ['\n\nq', '\n', ['\n\n', ' r\n s', { c: '\n z\n\n' }]],
      d: 'p\n  \nq\n',
      f: '  \n\nw',
    };
    const written = writtenWith(input, ' lead\n\n  two\n');
    // The edits fall from the turns on, where the literal blocks are.
    expectEditsDeclinedOrAgreed(written, edit, written.indexOf('\nturns:'));
  }, 60_000);
});

/**
 * Edits `written` from `from` on (each edit: where, how many characters removed, what inserted) and checks that the
 * fast reader declines each edited text or reads it as the reference does. Not vacuous: many edited texts are still
 * read (and agree), many are declined.
 */
function expectEditsDeclinedOrAgreed(
  written: string,
  edit: fc.Arbitrary<[number, number, string, string]>,
  from: number,
): void {
  let read = 0;
  let runs = 0;
  fc.assert(
    fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
      let text = written;
      for (const [at, removed, inserted, more] of edits) {
        const i = from + (at % (text.length - from + 1));
        text = text.slice(0, i) + inserted + more + text.slice(i + removed);
      }
      runs++;
      if (expectWrittenAgrees(text)) read++;
    }),
    { numRuns: 1500 },
  );
  expect(read).toBeGreaterThan(runs / 20);
  expect(read).toBeLessThan(runs);
}

describe("the writer's reader on its edge cases", () => {
  const read = (input: unknown, said = 'x') => {
    const written = writtenWith(input, said);
    expect(expectWrittenAgrees(written)).toBe(true);
    return (readWrittenYaml(written)!.value as { turns: { response: { content: unknown[] } }[] }).turns[0]!.response
      .content;
  };

  it.each([
    ['a literal block kept to its trailing newlines', 'line one\nline two\n\n\n'],
    ['a literal block stripped of its newline', 'line one\nline two'],
    ['a literal block with inner blank lines', 'one\n\n\ntwo\n'],
    ['a literal block of indented lines', 'one\n    two\n  three'],
    ['a literal block that starts with a space (`|2-`)', ' 68°F\n- **'],
    ['a literal block that starts with a blank line (indented)', '\n- **Temperature:**'],
    ['a literal block with a blank line of spaces', 'one\n  \ntwo'],
    ['a line break alone (`|+`)', '\n'],
    ['line breaks alone', '\n\n\n'],
    ['unicode', 'é 日本 \u{1F600} ok'],
    ['a number written as text', '12'],
    ['a boolean written as text', 'true'],
    ['null written as text', 'null'],
    ['a comment sign and a colon', 'a #b: c'],
  ])('reads %s', (_name, text) => {
    expect(read({ [text]: text }, text)).toEqual([
      { text },
      { toolUse: { id: 'toolu_1', name: 'add', input: { [text]: text } } },
    ]);
  });

  it('reads empty strings and keys that need quotes', () => {
    const input = { '': '', 'a: b': 'c', '- d': ['', '#'], '1': 1, true: 'true' };
    expect(read(input)[1]).toEqual({ toolUse: { id: 'toolu_1', name: 'add', input } });
  });

  it('reads deep nesting, as the writer writes it', () => {
    let input: unknown = 'bottom';
    for (let i = 0; i < 60; i++) input = i % 2 === 0 ? [input] : { level: input };
    expect(read(input)[1]).toEqual({ toolUse: { id: 'toolu_1', name: 'add', input } });
  });

  it.each(corpusNames)(
    "reads %s with CRLF line breaks, a byte order mark or both (what git's autocrlf and some editors make of it)",
    (name) => {
      const text = readFileSync(`trajectories/${name}`, 'utf8');
      const crlf = text.replaceAll('\n', '\r\n');
      for (const edited of [crlf, `\ufeff${text}`, `\ufeff${crlf}`]) {
        expect(expectWrittenAgrees(edited)).toBe(true);
        expect(parseTrajectory(edited, name)).toEqual(parseTrajectory(text, name));
      }
    },
  );

  // Found by the property above: the library's own rules for lines of spaces deeper than the block.
  it.each([
    ['a block of blank lines only, one deeper than the block', 'k: |1+\n   \nn: 1\n'],
    ['a block of blank lines only, in a sequence', 'k:\n  - |1+\n    \n  - b\n'],
    ['a block of blank lines only, in a sequence in a sequence', 'k:\n  - - |1+\n      \n\n    - b\n'],
    ['a block whose leading blank line is deeper than its first line', 'k: |\n      \n    a\nn: 1\n'],
    ['a clipped block ending in a line of deeper spaces', 'k: |2\n   a\n   \nn: 1\n'],
    ['a clipped block ending in one, then blank lines', 'k:\n  - text: |2\n       lead\n\n       \n\n\n  - next\n'],
  ])('agrees with the reference on %s, or declines it', (_name, text) => {
    expectWrittenAgrees(text);
  });

  it('declines a carriage return that is not part of a CRLF, and a byte order mark past the start', () => {
    for (const text of [
      corpus.replace('version: 1\n', 'version: 1\r'),
      corpus.replace('agent: calculator', 'agent: calc\rulator'),
      corpus.replace('agent: calculator', 'agent: \ufeffcalculator'),
      `\ufeff\ufeff${corpus}`,
      corpus.replace('\n', '\r\r\n'),
    ]) {
      expect(text).not.toBe(corpus);
      expect(readWrittenYaml(text)).toBeUndefined();
    }
  });

  it('declines what is wrong, and the error is the careful reader’s, word for word', () => {
    const duplicated = corpus.replace('version: 1\n', 'version: 1\nversion: 1\n');
    expect(readWrittenYaml(duplicated)).toBeUndefined();
    expect(caught(() => parseTrajectory(duplicated, 'd.yaml'), TrajectoryFormatError).message).toBe(
      "d.yaml:2:1: the key 'version' appears twice in one mapping; a mapping holds each key once.",
    );
  });
});
