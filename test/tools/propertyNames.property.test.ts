import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolDeclarationError, defineTool, type JsonObjectSchema, type JsonSchema } from '../../src/index.js';
import { API_PROPERTY_KEY } from '../support/messagesApiRules.js';

// The Messages API's rule for property names, over every set of names: a tool defineTool accepts has only names the
// API allows at the top of its input_schema (and every name the API allows is accepted, at any depth), and a tool
// declared with renameUnsafeProperties shows the model allowed names that stand for the declared ones one to one,
// the same whatever their order, with the model's arguments handed to run under exactly the declared names.

/** Pieces names are made of: allowed characters, the odd ones real APIs use, and ones with no ASCII form. */
const PIECES = [
  'a',
  'Z',
  '0',
  '_',
  '.',
  '-',
  'id',
  '[',
  ']',
  '[]',
  '<',
  '>',
  '=',
  '<=',
  '$',
  '@',
  ' ',
  'é',
  '名',
  '😀',
];
const name = fc.oneof(
  fc.stringMatching(/^[a-zA-Z0-9_.-]{1,64}$/),
  fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join('')),
  // Long names: over the 64 characters the rule allows, and alike in their first 64.
  fc
    .tuple(fc.integer({ min: 60, max: 70 }), fc.constantFrom('', 'x', 'y', '[0]'))
    .map(([length, tail]) => 'n'.repeat(length) + tail),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
/** Distinct names, `__proto__` aside (refused as an argument name whatever the API says). */
const names = fc.uniqueArray(
  name.filter((n) => n !== '__proto__'),
  { maxLength: 10 },
);
const allowed = (key: string) => API_PROPERTY_KEY.test(key);
const topLevelNames = (schema: Record<string, unknown>) => Object.keys((schema.properties ?? {}) as object);

function schemaOf(keys: readonly string[], nested: readonly string[], viaAllOf: boolean): JsonObjectSchema {
  const properties: Record<string, JsonSchema> = Object.fromEntries(keys.map((key) => [key, { type: 'string' }]));
  // Names the API does not check: a property's properties, an array's items', a definition's.
  const inner: Record<string, JsonSchema> = Object.fromEntries(nested.map((key) => [key, { type: 'integer' }]));
  properties.__nested = { type: 'object', properties: inner };
  properties.__rows = { type: 'array', items: { $ref: '#/$defs/Row' } };
  const $defs: Record<string, JsonSchema> = { Row: { type: 'object', properties: inner } };
  if (!viaAllOf) return { type: 'object', properties, required: [...keys], $defs };
  const half = Math.floor(keys.length / 2);
  const [first, second] = [Object.entries(properties).slice(0, half), Object.entries(properties).slice(half)];
  return {
    type: 'object',
    properties: Object.fromEntries(first),
    allOf: [{ properties: Object.fromEntries(second) }],
    required: [...keys],
    $defs,
  };
}

describe('defineTool holds every tool to the API rule for property names', () => {
  it('accepts a tool exactly when its top-level names are allowed, whatever the nested ones', () => {
    fc.assert(
      fc.property(names, names, fc.boolean(), (keys, nested, viaAllOf) => {
        const declare = () =>
          defineTool({
            name: 't',
            description: 'T.',
            input: schemaOf(keys, nested, viaAllOf),
            run: () => 'ok',
          });
        const refused = keys.filter((key) => !allowed(key));
        if (refused.length === 0) {
          const tool = declare();
          expect(topLevelNames(tool.definition().input_schema).every(allowed)).toBe(true);
          return;
        }
        let error: unknown;
        try {
          declare();
        } catch (thrown) {
          error = thrown;
        }
        expect(error).toBeInstanceOf(ToolDeclarationError);
        const problems = (error as ToolDeclarationError).problems;
        expect(problems.every((problem) => problem.code === 'invalid_property_name')).toBe(true);
        expect(problems.map((problem) => problem.path).sort()).toEqual(
          refused.map((key) => `input.properties.${key}`).sort(),
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('renameUnsafeProperties: a renaming the API accepts, one to one, stable, and undone exactly for run', () => {
  const define = (keys: readonly string[], received: unknown[] = []) =>
    defineTool({
      name: 't',
      description: 'T.',
      input: schemaOf(keys, [], false),
      renameUnsafeProperties: true,
      run: (args) => {
        received.push(args);
        return 'ok';
      },
    });

  it('shows only allowed names, one for each declared name, the allowed ones kept, required in step', () => {
    fc.assert(
      fc.property(names, (keys) => {
        const tool = define(keys);
        const shown = topLevelNames(tool.definition().input_schema);
        expect(shown.every(allowed)).toBe(true);
        expect(new Set(shown).size).toBe(keys.length + 2);
        const wireNames = tool.wireNames ?? {};
        const wireOf = (key: string) => (Object.hasOwn(wireNames, key) ? wireNames[key] : key);
        // Each name shown stands for one declared name, each declared name for one shown (a JS object puts names
        // like '0' first, so the order may differ where a safe name is one).
        expect(shown.map(wireOf).sort()).toEqual([...keys, '__nested', '__rows'].sort());
        for (const key of keys.filter(allowed)) expect(shown).toContain(key);
        expect(Object.values(wireNames).sort()).toEqual(keys.filter((key) => !allowed(key)).sort());
        const shownOf = new Map(Object.entries(wireNames).map(([shownName, wire]) => [wire, shownName]));
        expect(tool.inputSchema.required).toEqual(keys.map((key) => shownOf.get(key) ?? key));
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same names whatever order the declared names come in', () => {
    fc.assert(
      fc.property(
        names.chain((keys) => fc.tuple(fc.constant(keys), fc.shuffledSubarray(keys, { minLength: keys.length }))),
        ([keys, shuffled]) => {
          expect(define(shuffled).wireNames ?? {}).toEqual(define(keys).wireNames ?? {});
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hands run the model’s arguments under exactly the declared names', () => {
    fc.assert(
      fc.property(
        names.chain((keys) =>
          fc.tuple(
            fc.constant(keys),
            fc.record(Object.fromEntries(keys.map((key) => [key, fc.string({ maxLength: 5 })]))),
          ),
        ),
        ([keys, args]) => {
          const received: unknown[] = [];
          const tool = define(keys, received);
          const shownOf = new Map(Object.entries(tool.wireNames ?? {}).map(([shown, wire]) => [wire, shown]));
          const modelArgs = Object.fromEntries(Object.entries(args).map(([key, v]) => [shownOf.get(key) ?? key, v]));
          const bound = tool.bind(modelArgs);
          expect(bound.ok).toBe(true);
          if (!bound.ok) return;
          tool.run(bound.args, {
            toolUseId: 'toolu_1',
            agent: 'a',
            signal: new AbortController().signal,
            now: () => new Date(0),
          });
          expect(received).toEqual([args]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
