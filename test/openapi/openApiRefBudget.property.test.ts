import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpenApiTools } from '../../src/openapi/index.js';
import { graphSpec, jsonValueCount, referenceSize } from './refGraphSpecs.js';
import { useWatchedParser } from './watchedParser.js';

/**
 * Over generated graphs of `$ref`s (how many types, how many uses of other types each, how deep, with
 * and without cycles), openApiTools always ends with tools or the budget refusal; what the parser
 * validates stays within maxDocumentNodes, counted apart from legate (test/openapi/refGraphSpecs.ts);
 * a document is refused before validation only past it; every input schema published stays within
 * 20,000 JSON values, and all of them together within maxDocumentNodes.
 */
const watched = useWatchedParser();
const MAX_INPUT_SCHEMA_NODES = 20_000;
const DEFAULT_MAX_DOCUMENT_NODES = 1_000_000;

/** A use of another type: a property that is the type, a list of it, or a plain string. */
type Use = { kind: 'ref' | 'list'; to: number } | { kind: 'string' };

/** A property for a use of type `to`. */
const property = (use: Use, to: string) =>
  use.kind === 'string'
    ? { type: 'string' }
    : use.kind === 'ref'
      ? { $ref: `#/components/schemas/${to}` }
      : { type: 'array', items: { $ref: `#/components/schemas/${to}` } };

/** Types using types drawn at random: without cycles a type uses only the types after it, with them any type. */
const randomGraphArb = fc
  .record({
    types: fc.integer({ min: 1, max: 10 }),
    cycles: fc.boolean(),
    uses: fc.array(
      fc.array(
        fc.oneof(
          { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom('ref' as const, 'list' as const), to: fc.nat() }) },
          { weight: 1, arbitrary: fc.constant({ kind: 'string' as const }) },
        ),
        { maxLength: 4, size: 'max' },
      ),
      { minLength: 10, maxLength: 10 },
    ),
  })
  .map(({ types, cycles, uses }) => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < types; i++) {
      const targets = cycles ? types : types - i - 1;
      const own = targets === 0 ? [] : uses[i]!;
      schemas[`T${i}`] = {
        type: 'object',
        properties: Object.fromEntries(
          own.map((use, k) => {
            const to = use.kind === 'string' ? 0 : cycles ? use.to % targets : i + 1 + (use.to % targets);
            return [`p${k}`, property(use, `T${to}`)];
          }),
        ),
      };
    }
    return schemas;
  });

/** The reviewer's shape and its kin: each level uses the next `fan` times, the last maybe the first again. */
function fanOutSchemas(levels: number, fan: number, kind: 'ref' | 'list', cycle: boolean): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i <= levels; i++) {
    const next = i < levels ? i + 1 : cycle ? 0 : undefined;
    schemas[`T${i}`] = {
      type: 'object',
      properties:
        next === undefined
          ? { leaf: { type: 'string' } }
          : Object.fromEntries(
              Array.from({ length: fan }, (_, k) => [`p${k}`, property({ kind, to: next }, `T${next}`)]),
            ),
    };
  }
  return schemas;
}

const fanOutArb = fc
  .record({
    levels: fc.integer({ min: 1, max: 16 }),
    fan: fc.integer({ min: 1, max: 4 }),
    kind: fc.constantFrom('ref' as const, 'list' as const),
    cycle: fc.boolean(),
  })
  .map(({ levels, fan, kind, cycle }) => fanOutSchemas(levels, fan, kind, cycle));

const graphOf = (schemas: Record<string, unknown>, version: string) => ({
  schemas,
  spec: graphSpec(schemas, 'T0', version),
});
const graphArb = fc
  .tuple(fc.oneof(randomGraphArb, fanOutArb), fc.constantFrom('3.0.3', '3.1.0'))
  .map(([schemas, version]) => graphOf(schemas, version));
/** The reviewer's document (14 levels, three uses each) under the default budget, selected and not. */
const reviewers = graphOf(fanOutSchemas(14, 3, 'ref', false), '3.1.0');

describe('openApiTools over generated $ref graphs', () => {
  it('ends with tools within their bounds or the budget refusal, the parser validating within the budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        graphArb,
        fc.constantFrom(undefined, 50, 500, 5_000, 50_000),
        fc.constantFrom(undefined, ['ok'], ['graph']),
        async ({ spec }, maxDocumentNodes, operationIds) => {
          const { openApiTools, OpenApiError } = watched.entry();
          watched.dereferenced.length = 0;
          watched.validated.length = 0;
          const budget = maxDocumentNodes ?? DEFAULT_MAX_DOCUMENT_NODES;
          const options = {
            ...(maxDocumentNodes === undefined ? {} : { maxDocumentNodes }),
            ...(operationIds === undefined ? {} : { operationIds }),
          };
          let set: OpenApiTools;
          try {
            set = await openApiTools(spec, options);
          } catch (error) {
            if (!(error instanceof OpenApiError)) throw error;
            expect(error.code).toBe('openapi_too_large');
            // The operation that uses none of the types is never refused for them.
            expect(operationIds).not.toEqual(['ok']);
            if (watched.validated.length === 0) {
              // Refused before validating, only past the budget: what was read, counted apart, is larger.
              expect(referenceSize(watched.dereferenced.at(-1)!, budget)).toBeGreaterThan(budget);
            } else {
              // Refused while building the inputs: what was validated is within the budget, the inputs are not.
              expect(watched.validated).toHaveLength(1);
              expect(referenceSize(watched.validated[0]!, budget)).toBeLessThanOrEqual(budget);
              expect(error.message).toMatch(/the inputs of the operations selected/);
            }
            return;
          }
          expect(watched.validated).toHaveLength(1);
          for (const validated of watched.validated)
            expect(referenceSize(validated, budget)).toBeLessThanOrEqual(budget);
          const sizes = set.tools.map((tool) => jsonValueCount(tool.inputSchema));
          for (const size of sizes) expect(size).toBeLessThanOrEqual(MAX_INPUT_SCHEMA_NODES);
          expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(budget);
          const names = [...set.tools.map((t) => t.name), ...set.skipped.map((s) => s.operationId)];
          expect(names.sort()).toEqual(['graph', 'ok']);
        },
      ),
      {
        numRuns: 60,
        examples: [
          [reviewers, undefined, undefined],
          [reviewers, undefined, ['ok']],
        ],
      },
    );
  });

  it('counts exactly as a count apart from legate: refused at one node less, validated at the count', async () => {
    await fc.assert(
      fc.asyncProperty(graphArb, async ({ spec }) => {
        const { openApiTools } = watched.entry();
        watched.dereferenced.length = 0;
        watched.validated.length = 0;
        await openApiTools(spec, { maxDocumentNodes: 100_000 }).catch(() => undefined);
        const size = referenceSize(watched.dereferenced.at(-1)!, 100_000);
        // Past the bound, refused before validation.
        if (size > 100_000) {
          expect(watched.validated).toEqual([]);
          return;
        }
        watched.validated.length = 0;
        await expect(openApiTools(spec, { maxDocumentNodes: size - 1 })).rejects.toMatchObject({
          code: 'openapi_too_large',
        });
        expect(watched.validated).toEqual([]);
        // At the count, the document is validated; the inputs built from it may still be refused, after.
        const atCount = await openApiTools(spec, { maxDocumentNodes: size }).catch((error: unknown) => error);
        expect(watched.validated).toHaveLength(1);
        if (!(atCount instanceof Object && 'tools' in atCount))
          expect(atCount).toMatchObject({ message: expect.stringMatching(/the inputs of the operations selected/) });
      }),
      { numRuns: 25 },
    );
  });
});
