// How a refusal is worded: with the value that arrived (for the model that sent it) and without it (for a client
// outside the process, such as an MCP client, whose values legate does not echo), at each kind of path.
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.js';
import { Refusal, toInvalidArgument } from '../../src/tools/binder/invalidArgument.js';

const record = (refusal: Refusal, quoteValue?: boolean) => toInvalidArgument('t', refusal, quoteValue);

describe('a refusal without the value that arrived', () => {
  it('says what was expected and never what arrived', () => {
    const wrong = () => new Refusal('invalid_type', 'a string', 'the value was the number 1').withPath(['a', 0]);
    expect(record(wrong(), false)).toEqual({
      error: 'invalid_argument',
      tool: 't',
      argument: 'a',
      path: ['a', 0],
      code: 'invalid_type',
      message: "Tool 't' argument 'a' item 0 must be a string.",
    });
    expect(record(wrong(), true).message).toBe(
      "Tool 't' argument 'a' item 0 must be a string, but the value was the number 1.",
    );
    expect(record(wrong()).message).toBe(record(wrong(), true).message);
    const missing = new Refusal('required', 'a string', 'it was missing').withPath(['n']);
    expect(record(missing, false).message).toBe("Tool 't' argument 'n' is required and must be a string.");
    const own = new Refusal('failed_rule', 'too big', 'the value was 3', true).withPath(['n']);
    expect(record(own, false).message).toBe("Tool 't' argument 'n' was refused: too big.");
    const ambiguous = new Refusal('ambiguous', 'a string, or a number', 'the value was 3, which is both');
    expect(record(ambiguous.withPath(['n']), false).message).toBe(
      "Tool 't' argument 'n' must match exactly one of its alternatives (a string, or a number).",
    );
    expect(record(ambiguous, true).message).toBe(
      "Tool 't' argument 'n' must match exactly one of its alternatives (a string, or a number), but the value was " +
        '3, which is both.',
    );
  });

  it('does not name an argument the tool does not take, since its name is what arrived', () => {
    const top = () => new Refusal('unknown_argument', "its arguments are 'a'", '').withPath(['secret']);
    expect(record(top(), false)).toEqual({
      error: 'invalid_argument',
      tool: 't',
      argument: null,
      path: ['secret'],
      code: 'unknown_argument',
      message: "Tool 't' was sent an argument it does not take; its arguments are 'a'.",
    });
    expect(record(top(), true)).toMatchObject({
      argument: 'secret',
      message: "Tool 't' has no argument 'secret'; its arguments are 'a'.",
    });
    const nested = () => new Refusal('unknown_argument', "its members are 'x'", '').withPath(['a', 'b', 'secret']);
    expect(record(nested(), false)).toMatchObject({
      argument: 'a',
      message: "Tool 't' argument 'a' member 'b' was sent a member it does not take; its members are 'x'.",
    });
    expect(record(nested(), true).message).toBe(
      "Tool 't' argument 'a' member 'b' has no member 'secret'; its members are 'x'.",
    );
  });

  it('is what a binder asked for it gives, from the compiled check', () => {
    const tool = defineTool({
      name: 'mcp',
      description: 'M.',
      input: { type: 'object', properties: { n: { type: 'integer', maximum: 3 } } },
      run: () => 'ok',
    });
    expect(tool.bind({ n: 4 }, { quoteValue: false })).toMatchObject({
      ok: false,
      invalid: { argument: 'n', message: "Tool 'mcp' argument 'n' must be a whole number of at most 3." },
    });
    expect(tool.bind({ token: 'abc' }, { quoteValue: false })).toMatchObject({
      ok: false,
      invalid: { argument: null, message: "Tool 'mcp' was sent an argument it does not take; its arguments are 'n'." },
    });
    expect(tool.bind({ n: 4 }, {})).toMatchObject({
      ok: false,
      invalid: { message: expect.stringContaining(', but') },
    });
  });
});

describe('a refusal for nesting too deep', () => {
  it('names the argument and gives the whole path as text, with what was reached, quoted or not', () => {
    const deep = () => new Refusal('too_deep', 'nested at most 2 levels deep', 'it reached level 3');
    expect(record(deep().withPath(['a', 'b', 0, 'c', 1]), false).message).toBe(
      "Tool 't' argument 'a' must be nested at most 2 levels deep, but it reached level 3 at a.b[0].c[1]; send the " +
        'value with less nesting.',
    );
    expect(record(deep().withPath([]), true).message).toBe(
      "Tool 't' input must be nested at most 2 levels deep, but it reached level 3 at input; send the value with " +
        'less nesting.',
    );
    expect(record(deep().withPath([0, 'x']), true).message).toContain('but it reached level 3 at [0].x;');
  });
});

describe('a refusal inside a union', () => {
  it('names the union where it sits, above the alternative that came closest', () => {
    const refusal = new Refusal('invalid_type', 'a string', 'the value was 1').withPath(['a', 'b', 2, 'c']);
    refusal.union = { alternatives: 'a string, or an object', closest: 'an object', below: 2 };
    expect(record(refusal).message).toBe(
      "Tool 't' argument 'a' member 'b' item 2 member 'c' must be a string, but the value was 1; argument 'a' " +
        "member 'b' matches none of its alternatives (a string, or an object), and an object came closest.",
    );
    refusal.union.below = 0;
    expect(record(refusal, false).message).toBe(
      "Tool 't' argument 'a' member 'b' item 2 member 'c' must be a string; argument 'a' member 'b' item 2 member " +
        "'c' matches none of its alternatives (a string, or an object), and an object came closest.",
    );
  });

  it('moves with the refusal as it is placed under an enclosing path', () => {
    const refusal = new Refusal('too_long', 'x', 'y').withPath(['c']);
    expect(refusal.under(['a', 0]).path).toEqual(['a', 0, 'c']);
    expect(refusal.under([]).path).toEqual(['a', 0, 'c']);
    expect(refusal.at(1).path).toEqual([1, 'a', 0, 'c']);
  });
});
