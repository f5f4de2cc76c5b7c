import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, divide, squareRoot } from '../../examples/calculator/tools.js';
import { lookupOrder } from '../../examples/orders/agent.js';
import { refundPayment, sendEmail, verifyIdentity, closeTicket } from '../../examples/support/agent.js';
import { fetchPage, sendPayment } from '../../examples/payments/agent.js';
import { defineTool, type AnyTool } from '../../src/index.js';
import { fuzzTool, malformedInput, validInput } from '../../src/fuzz/index.js';

const exampleTools: AnyTool[] = [
  add,
  divide,
  squareRoot,
  lookupOrder,
  refundPayment,
  sendEmail,
  verifyIdentity,
  closeTicket,
  fetchPage,
  sendPayment,
];

describe('fuzzTool', () => {
  it.each(exampleTools.map((tool) => [tool.name, tool] as const))(
    'finds nothing wrong with %s',
    async (_name, tool) => {
      const report = await fuzzTool(tool, { numRuns: 300, seed: 7 });
      expect(report.failures).toEqual([]);
      expect(report.cases).toBeGreaterThan(300);
    },
  );

  it('catches a broken binder accepting strings for integers; a shrunk counterexample names the path', async () => {
    const broken: AnyTool = {
      ...add,
      // A fixture: the binder turns numeric strings into numbers instead of refusing them.
      bind: (input: unknown) => {
        if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
          const coerced = Object.fromEntries(
            Object.entries(input).map(([k, v]) => [
              k,
              typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v,
            ]),
          );
          return add.bind(coerced);
        }
        return add.bind(input);
      },
    };
    const report = await fuzzTool(broken, { numRuns: 500, seed: 11 });
    expect(report.failures).toHaveLength(1);
    const [failure] = report.failures;
    expect(failure!.property).toBe('malformed inputs are refused where they were broken');
    expect(failure!.message).toMatch(/^an input broken by wrong_type at argument '(left|right)' was accepted$/);
    expect(failure!.counterexample).toMatchObject({ malformation: 'wrong_type' });
    expect(typeof failure!.seed).toBe('number');
    expect(failure!.path).toEqual(expect.any(String));
  });

  it("catches run being reached by malformed input, through the runtime's own call path", async () => {
    // A fixture binder that refuses when asked directly but lets the runtime's call through.
    let calls = 0;
    const twoFaced: AnyTool = {
      ...add,
      bind: (input: unknown) => (calls++ % 2 === 0 ? add.bind(input) : { ok: true, args: input }),
    };
    const report = await fuzzTool(twoFaced, { numRuns: 100, seed: 3 });
    expect(report.failures[0]!.message).toMatch(/^run was invoked on an input broken by /);
  });
});

describe('fuzzTool, on a binder broken another way', () => {
  // Fixtures: the add tool's binder, broken one way each. A refusal is read off the call's record in the runtime.
  const broken = (bind: (input: unknown) => ReturnType<AnyTool['bind']>): AnyTool => ({ ...add, bind });
  const refused = (input: unknown, change: object) => {
    const bound = add.bind(input);
    return bound.ok ? bound : { ok: false as const, invalid: { ...bound.invalid, ...change } };
  };
  it.each([
    [
      'throws',
      broken((input) => {
        if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new RangeError('no object');
        return add.bind(input);
      }),
      /^the binder threw RangeError on an input broken by not_an_object at input$/,
    ],
    [
      'refuses elsewhere',
      broken((input) => refused(input, { path: ['elsewhere'] })),
      /^an input broken by \w+ at .+ was refused at argument 'elsewhere'$/,
    ],
    [
      'refuses without naming the tool',
      broken((input) => refused(input, { message: 'Refused.' })),
      /^the refusal does not name the tool: Refused\.$/,
    ],
    [
      'refuses without naming the place',
      broken((input) => refused(input, { message: "Tool 'add' refused it." })),
      /^the refusal does not name argument '(left|right)': Tool 'add' refused it\.$/,
    ],
    [
      'hands run other values',
      broken((input) => {
        const bound = add.bind(input);
        return bound.ok ? { ok: true, args: { ...(bound.args as object), right: 0 } } : bound;
      }),
      /^run received \{"left":-?\d+,"right":0\}, but the model sent /,
    ],
  ])('reports one that %s', async (_how, tool, message) => {
    const report = await fuzzTool(tool, { numRuns: 300, seed: 13 });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]!.message).toMatch(message);
  });
});

describe('schema arbitraries', () => {
  const tool = defineTool({
    name: 'ship',
    description: 'Ships.',
    input: {
      type: 'object',
      properties: {
        weight: { type: 'integer', minimum: 1, maximum: 30 },
        unit: { type: 'string', enum: ['kg', 'lb'] },
        address: { type: 'object', properties: { zip: { type: 'string', pattern: '^[0-9]{5}$' } }, required: ['zip'] },
        parts: { type: 'array', items: { type: 'string', maxLength: 3 }, maxItems: 2 },
      },
      required: ['weight', 'unit', 'address'],
    },
    run: () => 'ok',
  });

  it('generate valid inputs the binder accepts', () => {
    fc.assert(
      fc.property(validInput(tool), (input) => {
        expect(tool.bind(input).ok).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('generate malformed inputs of every kind the issue lists, each refused at its path', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(malformedInput(tool), (broken) => {
        seen.add(broken.malformation);
        const result = tool.bind(broken.input);
        expect(result.ok).toBe(false);
        // Nesting past the input's depth limit is refused where it crosses the limit, inside the site.
        if (!result.ok)
          expect(
            result.invalid.code === 'too_deep' ? result.invalid.path.slice(0, broken.path.length) : result.invalid.path,
          ).toEqual(broken.path);
      }),
      { numRuns: 2000, seed: 5 },
    );
    for (const kind of [
      'wrong_type',
      'missing_required',
      'explicit_null',
      'out_of_range',
      'not_an_integer',
      'huge_magnitude',
      'too_long',
      'pattern_miss',
      'enum_near_miss',
      'extra_property',
      'deep_nesting',
      'not_an_object',
    ]) {
      expect(seen, kind).toContain(kind);
    }
  });
});
