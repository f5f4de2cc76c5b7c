import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_TRAJECTORY_BYTES, TrajectoryFormatError, parseTrajectory, serializeTrajectory } from '../../src/index.js';
import { parseCarefully } from '../../src/trajectory/carefulYaml.js';
import { caught } from '../support/caught.js';

const corpusFile = 'trajectories/invalid-argument-corrected.yaml';
const corpus = readFileSync(corpusFile, 'utf8');

const formatError = (text: string) => caught(() => parseTrajectory(text, 'bad.yaml'), TrajectoryFormatError);

describe('parseTrajectory', () => {
  it.each(readdirSync('trajectories').filter((name) => name.endsWith('.yaml')))(
    'reads %s and writes it back byte for byte',
    (name) => {
      const text = readFileSync(`trajectories/${name}`, 'utf8');
      expect(serializeTrajectory(parseTrajectory(text, name))).toBe(text);
    },
  );

  it('points at the line and column of malformed YAML', () => {
    const truncated = `${corpus.slice(0, corpus.indexOf('turns:'))}turns:\n  - response: { id: "msg_1\n`;
    const error = formatError(truncated);
    expect(error.line).toBeGreaterThan(10);
    expect(error.message).toMatch(/^bad\.yaml:\d+:\d+: this is not valid YAML: /);
  });

  it('points at the field of the wrong type, with its path', () => {
    const edited = corpus.replace(/(summary:\n.*\n.*\n {2}usage: \{ input: )\d+/, '$1lots');
    expect(edited).not.toBe(corpus);
    const error = formatError(edited);
    expect(error.path).toBe('summary.usage.input');
    expect(error.message).toMatch(
      new RegExp(
        '^bad\\.yaml:\\d+:\\d+: summary\\.usage\\.input should be a whole number of at least 0, ' +
          'but it was the string "lots"\\.$',
      ),
    );
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
    expect(error.message).toBe(
      'bad.yaml:1:10: this file uses trajectory format version 2, and this legate reads version 1. Upgrade ' +
        'legate to read it.',
    );
  });

  it('accepts fields it does not know', () => {
    const extended = corpus.replace(
      'agent: calculator',
      'agent: calculator\nreviewedBy: someone\nfutureField:\n  nested: true',
    );
    expect(parseTrajectory(extended, 'ok.yaml').agent).toBe('calculator');
  });

  it('refuses YAML anchors and aliases, which could expand a small file into a huge one', () => {
    const anchored = formatError('version: 1\nname: &n x\nagent: *n\n');
    expect(anchored.message).toBe(
      'bad.yaml:2:7: YAML anchors (&n) are not allowed in a trajectory; it holds plain data only, with no ' +
        'aliases to refer to them.',
    );
    const aliased = formatError(corpus.replace('agent: calculator', 'agent: *calculator'));
    expect(aliased.message).toMatch(/^bad\.yaml:\d+:8: /);
    expect(corpus.split('\n')[aliased.line! - 1]).toBe('agent: calculator');
  });

  it('refuses YAML tags: a trajectory holds plain data only', () => {
    expect(formatError('version: 1\nname: !!binary aGk=\n').message).toBe(
      'bad.yaml:2:7: YAML tags (!!binary) are not allowed in a trajectory; it holds plain data only.',
    );
    expect(formatError('version: 1\nname: !custom x\n').message).toContain('YAML tags (!custom)');
  });

  it('refuses a key written twice, at the second, also when the two are written differently', () => {
    const twice = formatError(corpus.replace('agent: calculator', 'agent: calculator\nagent: other'));
    expect(twice.problem).toBe(`the key 'agent' appears twice in one mapping; a mapping holds each key once.`);
    expect(corpus.replace('agent: calculator', 'agent: calculator\nagent: other').split('\n')[twice.line! - 1]).toBe(
      'agent: other',
    );
    expect(caught(() => parseCarefully('version: 1\n1: a\n"1": b\n', 'c.yaml'), TrajectoryFormatError).line).toBe(3);
  });

  it('keeps a __proto__ key as data, never as a prototype', () => {
    const hostile = corpus.replace(
      'input:\n              left: one',
      'input:\n              __proto__: { polluted: true }\n              left: one',
    );
    const trajectory = parseTrajectory(hostile, 'x.yaml');
    const input = (trajectory.turns[0]!.response.content[1] as { toolUse: { input: Record<string, unknown> } }).toolUse
      .input;
    expect(Object.keys(input)).toContain('__proto__');
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps a __proto__ key as data in a server block and as the name of an agent', () => {
    const hostile = corpus
      .replace(
        "        - text: I'll add the two numbers.\n",
        '        - server: { type: server_tool_use, __proto__: { polluted: true } }\n',
      )
      .replace('tools:\n', 'agents:\n  __proto__:\n    request: { model: m, maxTokens: 1 }\n    tools: []\ntools:\n');
    const trajectory = parseTrajectory(hostile, 'x.yaml');
    const server = (trajectory.turns[0]!.response.content[0] as { server: Record<string, unknown> }).server;
    expect(Object.keys(server)).toEqual(['type', '__proto__']);
    expect(Object.getPrototypeOf(server)).toBe(Object.prototype);
    expect(Object.keys(trajectory.agents!)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(trajectory.agents)).toBe(Object.prototype);
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

describe('the careful reader', () => {
  const refused = (text: string) => caught(() => parseCarefully(text, 'c.yaml'), TrajectoryFormatError);

  it('refuses anchors, aliases and tags at the anchor, the alias or the tag, before anything after them', () => {
    expect(refused('a: &x 1\nb: *x\n').message).toMatch(/^c\.yaml:1:4: YAML anchors \(&x\)/);
    expect(refused('a: 1\nb: *x\n').message).toMatch(/^c\.yaml:2:4: YAML aliases \(\*x\)/);
    expect(refused('a: !!str 1\n').message).toMatch(/^c\.yaml:1:4: YAML tags \(!!str\)/);
    expect(refused('a:\n  - [1, &y 2]\n').message).toMatch(/^c\.yaml:2:9: YAML anchors \(&y\)/);
    expect(refused('a: &x [1\nb: *x\n').message).toMatch(/^c\.yaml:1:4: YAML anchors \(&x\)/);
  });

  it('refuses a second document, a number that is not finite and bad YAML, each where it is', () => {
    expect(refused('a: 1\n---\nb: 2\n').message).toBe(
      'c.yaml:2:1: the file holds a second YAML document (after `---`); a trajectory is one document.',
    );
    expect(refused('a: 1\nb: 1e400\n').message).toMatch(/^c\.yaml:2:4: 1e400 is not a finite number/);
    expect(refused('a: 1\nb: [1\n').message).toMatch(/^c\.yaml:\d+:\d+: this is not valid YAML: /);
  });
});
