import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { trajectoryFormat } from '../../src/trajectory/format/trajectory.js';
import { valueCheck } from '../../src/trajectory/format/valueCheck.js';

// The reader checks each scalar of a file by a check read off the format's schema (valueCheck), and skips the schema
// for a file that fits: a check that said yes where the schema says no would let a malformed file through. Held here
// to the schema's own verdict for every schema the format declares, wrappers (optional, nullable) included.

/** Every schema reachable from the format: fields as declared (wrapped) and what they wrap, list items, options. */
function schemasOf(root: z.ZodType): z.ZodType[] {
  const found = new Set<z.ZodType>();
  const visit = (schema: z.ZodType) => {
    if (found.has(schema)) return;
    found.add(schema);
    if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) visit(schema.unwrap() as z.ZodType);
    else if (schema instanceof z.ZodObject) for (const field of Object.values(schema.shape)) visit(field as z.ZodType);
    else if (schema instanceof z.ZodArray) visit(schema.element as z.ZodType);
    else if (schema instanceof z.ZodRecord) visit(schema.valueType as z.ZodType);
    else if (schema instanceof z.ZodUnion) for (const option of schema.options) visit(option as z.ZodType);
    else if (schema instanceof z.ZodLazy) visit(schema.unwrap() as z.ZodType);
  };
  visit(root);
  return [...found];
}

/** The values a scalar check meets at its edges: absent, null, numbers that are not whole or not finite, words. */
const scalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(undefined, null, true, false, 0, -0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53),
  fc.constantFrom('', 'sha256:0a9f', 'sha256:', 'sha256:XYZ', 'end_turn', 'tool_use', 'ok', 'user', 'auto', '1h'),
  fc.constantFrom('2026-11-29T18:00:00.000Z', 'web_search_20250305', 'mcp_tool_use', 'text', 'bash_20250124'),
  fc.integer({ min: -5, max: 5 }),
  fc.double(),
  fc.string({ maxLength: 6 }),
  fc.stringMatching(/^[a-z_]{1,12}_\d{8}$/),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('text', 'type', 'name'), scalar, { maxKeys: 2 }) },
);

describe("the reader's check of a value", () => {
  const schemas = schemasOf(trajectoryFormat);

  it('reaches the scalars of the format, wrapped and not (the property below is not vacuous)', () => {
    expect(schemas.length).toBeGreaterThan(100);
    expect(schemas.some((schema) => schema instanceof z.ZodOptional)).toBe(true);
    expect(schemas.some((schema) => schema instanceof z.ZodNullable)).toBe(true);
  });

  it("gives the schema's verdict for every schema of the format and any value", () => {
    fc.assert(
      fc.property(fc.constantFrom(...schemas), value, (schema, candidate) => {
        expect(valueCheck(schema)(candidate)).toBe(schema.safeParse(candidate).success);
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives the same verdict when a value is checked again (a pattern keeps no state between tests)', () => {
    const global = z.string().regex(/^sha256:[0-9a-f]+$/g);
    const check = valueCheck(global);
    for (const candidate of ['sha256:0a', 'sha256:0a', 'sha256:zz', 'sha256:0a']) {
      expect(check(candidate)).toBe(global.safeParse(candidate).success);
    }
  });
});
