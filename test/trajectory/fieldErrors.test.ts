import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ReplayTransport, TrajectoryFormatError, parseTrajectory } from '../../src/index.js';
import { caught } from '../support/caught.js';

const toolFailure = readFileSync('trajectories/tool-failure.yaml', 'utf8');
const toolLoop = readFileSync('trajectories/tool-loop.yaml', 'utf8');

/** Replaces the one occurrence of `from` (it must be there exactly once). */
function edit(text: string, from: string, to: string): string {
  expect(text.split(from)).toHaveLength(2);
  return text.replace(from, to);
}

/** `file:line:column` of the first character of `marker`, which occurs once in the text. */
function placeOf(text: string, marker: string): string {
  const offset = text.indexOf(marker);
  expect(offset).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(marker, offset + 1)).toBe(-1);
  const before = text.slice(0, offset).split('\n');
  return `bad.yaml:${before.length}:${before[before.length - 1]!.length + 1}`;
}

const messageFor = (text: string) => caught(() => parseTrajectory(text, 'bad.yaml'), TrajectoryFormatError).message;

describe('a field of the wrong kind is reported at line and column, saying what was expected and what arrived', () => {
  it('a usage count that is not a number (turns[i].response.usage)', () => {
    const text = edit(
      toolFailure,
      'usage: { input_tokens: 348, output_tokens: 27 }',
      'usage: { input_tokens: 348, output_tokens: many }',
    );
    expect(messageFor(text)).toBe(
      `${placeOf(text, 'many }')}: ` +
        'turns[1].response.usage.output_tokens should be a whole number of at least 0, but it was the string "many".',
    );
  });

  it("a usage count that is not a number, in an older file's usage", () => {
    const text = edit(
      toolFailure,
      'usage: { input_tokens: 348, output_tokens: 27 }',
      'usage: { input: 348, output: many }',
    );
    expect(messageFor(text)).toBe(
      `${placeOf(text, 'many }')}: ` +
        'turns[1].response.usage.output should be a whole number of at least 0, but it was the string "many".',
    );
  });

  it('a header field that is missing, at the mapping it is missing from', () => {
    const text = edit(toolFailure, 'legate: 0.1.0\n', '');
    expect(messageFor(text)).toBe(`bad.yaml:1:1: 'legate' is missing.`);
    const tool = edit(toolFailure, '    digest: sha256:5096fd100a36ab58\n', '');
    expect(messageFor(tool)).toBe(`${placeOf(tool, 'name: divide')}: 'digest' is missing from tools[1].`);
  });

  it('an outcome that is not one of the outcomes', () => {
    const text = edit(toolFailure, 'outcome: error', 'outcome: crashed');
    expect(messageFor(text)).toBe(
      `${placeOf(text, 'crashed')}: turns[0].results[0].outcome should be ` +
        'one of ok, error, invalid, blocked, planned, suspended, incomplete, but it was the string "crashed".',
    );
  });

  it('a content block of no known kind, naming the kinds there are and the fields it had', () => {
    const text = edit(toolFailure, '        - text: The square root', '        - picture: The square root');
    expect(messageFor(text)).toBe(
      `${placeOf(text, 'picture:')}: turns[1].response.content[0] should be a content block with one of ` +
        'text, thinking, redactedThinking, toolUse, block (or blockJson) or server (or serverJson), ' +
        "but it had 'picture'.",
    );
  });

  it('a field of a known block kind, reported in that kind', () => {
    const text = edit(toolFailure, '            name: square_root\n', '            name: [ square_root ]\n');
    expect(messageFor(text)).toBe(
      `${placeOf(text, '[ square_root ]')}: ` +
        'turns[0].response.content[0].toolUse.name should be a string, but it was the array ["square_root"].',
    );
    const noInput = edit(toolFailure, '            input:\n              value: -4\n', '');
    expect(messageFor(noInput)).toBe(
      `${placeOf(noInput, 'id: toolu_s1_1\n            name')}: 'input' is missing from ` +
        'turns[0].response.content[0].toolUse.',
    );
  });

  it('an input that is neither text nor a list of blocks, naming both forms', () => {
    const text = edit(toolFailure, 'input: What is the square root of -4?', 'input: 42');
    expect(messageFor(text)).toBe(
      `${placeOf(text, '42')}: input should be text or a list of content blocks, but it was the number 42.`,
    );
  });

  it('a clock reading that is not a date and time', () => {
    const text = edit(toolLoop, `  - ${parseTrajectory(toolLoop).clock![0]}\n`, '  - yesterday\n');
    expect(messageFor(text)).toBe(
      `${placeOf(text, 'yesterday')}: ` +
        'clock[0] should be an ISO 8601 date and time, like 2026-11-29T18:00:00.000Z, but it was the string ' +
        '"yesterday".',
    );
  });

  it('a tool digest that is not a sha256 digest', () => {
    const text = edit(toolFailure, 'digest: sha256:5096fd100a36ab58', 'digest: md5:5096');
    expect(messageFor(text)).toBe(
      `${placeOf(text, 'md5:5096')}: ` +
        'tools[1].digest should be a digest: sha256: and hexadecimal digits, but it was the string "md5:5096".',
    );
  });

  it('a stop reason that is not a string (one the API added later is read as it was written)', () => {
    const text = edit(toolFailure, 'stopReason: tool_use', 'stopReason: [tool_use]');
    expect(messageFor(text)).toBe(
      `${placeOf(text, '[tool_use]')}: turns[0].response.stopReason should be null or a string, ` +
        'but it was the array ["tool_use"].',
    );
    const later = parseTrajectory(edit(toolFailure, 'stopReason: tool_use', 'stopReason: paused'));
    expect(later.turns[0]!.response.stopReason).toBe('paused');
  });

  it('a problem inside a value written as JSON text, named by its field and placed at the text', () => {
    const text = edit(
      toolFailure,
      '        - text: The square root of a negative',
      `        - blockJson: '{"type":"tool_use"}'\n#`,
    );
    expect(messageFor(text)).toBe(
      `${placeOf(text, `'{"type"`)}: turns[1].response.content[0].block.type should be a block type other than ` +
        'text, thinking, redacted_thinking, tool_use (those have forms of their own), ' +
        'but it was the string "tool_use".',
    );
  });
});

describe('a turn made by an agent the file does not describe', () => {
  const handoff = readFileSync('trajectories/handoff-to-billing.yaml', 'utf8');

  it('is refused where the turn names it, with the agents the file does describe', () => {
    const text = edit(handoff, '  - agent: triage\n', '  - agent: tirage\n');
    expect(messageFor(text)).toBe(
      `${placeOf(text, 'tirage')}: turns[0].agent names 'tirage', which the file does not describe: ` +
        "it should be 'triage' (the run's agent) or one under 'agents' (billing).",
    );
  });

  it('is refused by a replay of a trajectory built in code, as a format error', () => {
    const trajectory = parseTrajectory(handoff, 'handoff.yaml');
    trajectory.turns[1]!.agent = 'payments';
    const error = caught(() => new ReplayTransport(trajectory, { file: 'handoff.yaml' }), TrajectoryFormatError);
    expect(error.message).toBe(
      "handoff.yaml: turns[1].agent names 'payments', which the trajectory does not describe: " +
        "it should be 'triage' (the run's agent) or one under 'agents' (billing).",
    );
  });
});
