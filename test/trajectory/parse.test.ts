import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { MAX_TRAJECTORY_BYTES, TrajectoryFormatError, parseTrajectory, serializeTrajectory, type Trajectory } from '../../src/index.js';
import { readPlainYaml } from '../../src/trajectory/fastYaml.js';
import { caught } from '../support/caught.js';

const corpusFile = 'trajectories/invalid-argument-corrected.yaml';
const corpus = readFileSync(corpusFile, 'utf8');

const formatError = (text: string) => caught(() => parseTrajectory(text, 'bad.yaml'), TrajectoryFormatError);

describe('parseTrajectory', () => {
  it('reads every shipped trajectory and writes it back byte for byte', () => {
    for (const name of ['tool-loop', 'parallel-tool-calls', 'invalid-argument-corrected', 'tool-failure', 'max-tokens', 'refusal']) {
      const text = readFileSync(`trajectories/${name}.yaml`, 'utf8');
      expect(serializeTrajectory(parseTrajectory(text, name))).toBe(text);
    }
  });

  it('points at the line and column of malformed YAML', () => {
    const truncated = corpus.slice(0, corpus.indexOf('turns:')) + 'turns:\n  - response: { id: "msg_1\n';
    const error = formatError(truncated);
    expect(error.line).toBeGreaterThan(10);
    expect(error.message).toMatch(/^bad\.yaml:\d+:\d+: this is not valid YAML: /);
  });

  it('points at the field of the wrong type, with its path', () => {
    const edited = corpus.replace(/(summary:\n.*\n.*\n  usage: \{ input: )\d+/, '$1lots');
    expect(edited).not.toBe(corpus);
    const error = formatError(edited);
    expect(error.path).toBe('summary.usage.input');
    expect(error.message).toMatch(/^bad\.yaml:\d+:\d+: summary\.usage\.input should be a whole number of at least 0, but it was the string "lots"\.$/);
    const line = edited.split('\n')[error.line! - 1]!;
    expect(line.slice(error.column! - 1)).toMatch(/^lots/);
  });

  it('points at the mapping a required field is missing from', () => {
    const error = formatError(corpus.replace(/\n {6}stopReason: end_turn\n/, '\n'));
    expect(error.problem).toBe(`'stopReason' is missing from turns[2].response.`);
    expect(error.line).toBeDefined();
  });

  it('refuses a newer format version, saying which version this legate reads', () => {
    const error = formatError(corpus.replace('version: 1', 'version: 2'));
    expect(error.message).toBe('bad.yaml:1:10: this file uses trajectory format version 2, and this legate reads version 1. Upgrade legate to read it.');
  });

  it('accepts fields it does not know', () => {
    const extended = corpus.replace('agent: calculator', 'agent: calculator\nreviewedBy: someone\nfutureField:\n  nested: true');
    expect(parseTrajectory(extended, 'ok.yaml').agent).toBe('calculator');
  });

  it('refuses YAML aliases, which could expand a small file into a huge one', () => {
    const error = formatError('version: 1\nname: &n x\nagent: *n\n');
    expect(error.message).toContain('YAML aliases');
    expect(error.line).toBe(3);
  });

  it('refuses YAML tags: a trajectory holds plain data only', () => {
    expect(formatError('version: 1\nname: !!binary aGk=\n').message).toContain('YAML tags');
    expect(formatError('version: 1\nname: !custom x\n').message).toMatch(/YAML tags|not plain data/);
  });

  it('keeps a __proto__ key as data, never as a prototype', () => {
    const hostile = corpus.replace('input:\n              left: one', 'input:\n              __proto__: { polluted: true }\n              left: one');
    const trajectory = parseTrajectory(hostile, 'x.yaml');
    const input = (trajectory.turns[0]!.response.content[1] as { toolUse: { input: Record<string, unknown> } }).toolUse.input;
    expect(Object.keys(input)).toContain('__proto__');
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a file over the size limit before parsing it', () => {
    const error = formatError(`version: 1\n# ${'x'.repeat(MAX_TRAJECTORY_BYTES)}\n`);
    expect(error.message).toContain('over the');
    expect(error.line).toBeUndefined();
  });

  it('refuses an empty file, saying how a trajectory starts', () => {
    expect(formatError('').message).toContain('the file is empty');
  });
});

describe('serializeTrajectory', () => {
  const base = parseTrajectory(corpus, corpusFile);
  /** Text that stresses YAML: colons, quotes, leading spaces, trailing newlines, unicode, lone surrogates. */
  const awkwardText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.constantFrom('', ' leading', 'trailing ', 'a: b', '- item', '# not a comment', 'null', 'true', '123', '"quoted"', "it's", 'line\n', 'two\nlines\n\n', '\ttab', 'EqQBCkYIBxgCKkDk+/Zx9Qp8==', '{not: flow}', '|', '>', '\r\n', '\u2028', 'lone \uD800 surrogate', '\u0000nul', '\u001b[31mansi'),
  );

  it('round-trips any text byte for byte: texts, thinking and signatures, tool inputs', () => {
    fc.assert(
      fc.property(awkwardText, awkwardText, awkwardText, fc.jsonValue(), (text, thinking, signature, input) => {
        const trajectory: Trajectory = structuredClone(base);
        trajectory.request.system = text;
        trajectory.turns[0]!.response.content = [
          { thinking, signature },
          { text },
          { toolUse: { id: 'toolu_1', name: 'add', input } },
        ];
        const written = serializeTrajectory(trajectory);
        const read = parseTrajectory(written, 'p.yaml');
        expect(read.request.system).toBe(text);
        expect(read.turns[0]!.response.content).toEqual(trajectory.turns[0]!.response.content);
        expect(serializeTrajectory(read)).toBe(written);
      }),
      { numRuns: 300 },
    );
  });
});

describe('the fast reader', () => {
  /** Scalars whose type a YAML schema decides: each must come back as what was written. */
  const typed = fc.oneof(
    fc.constantFrom('~', 'Null', 'NULL', 'null', 'True', 'FALSE', 'yes', 'no', 'on', 'off', 'y', '0o17', '0x1F', '0b101', '1_000', '+1', '-0', '.5', '1.', '1e3', '.inf', '-.Inf', '.NaN', '2026-11-29', '12:30:00', '0777', '1:20', '<<', '=', '!', '&a', '*a', '%x', '@x', '`x', '? x', '- x', 'a #b', 'a: b'),
    fc.string({ maxLength: 12 }),
  );
  const scalar = fc.oneof(typed, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(typed, tie('node'), { maxKeys: 4 })),
  })).node;

  it('reads everything the writer writes exactly as the yaml library does', () => {
    const base = parseTrajectory(corpus, corpusFile);
    fc.assert(
      fc.property(value, typed, (input, text) => {
        const trajectory: Trajectory = structuredClone(base);
        trajectory.turns[0]!.response.content = [{ text }, { toolUse: { id: 'toolu_1', name: 'add', input } }];
        const written = serializeTrajectory(trajectory);
        const fast = readPlainYaml(written);
        expect(fast).toBeDefined();
        expect(fast!.value).toEqual(YAML.parse(written, { schema: 'core' }));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves anchors, aliases, tags and errors to the careful reader', () => {
    expect(readPlainYaml('a: &x 1\nb: *x\n')).toBeUndefined();
    expect(readPlainYaml('a: !!str 1\n')).toBeUndefined();
    expect(readPlainYaml('a: [1\n')).toBeUndefined();
    expect(readPlainYaml('a: 1\n---\nb: 2\n')).toBeUndefined();
    expect(readPlainYaml('a: 1\na: 2\n')).toBeUndefined();
  });
});
