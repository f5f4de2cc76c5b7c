import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { malformedInput, type Malformation, validInput } from '../../src/fuzz/index.js';
import { type AnyTool, defineTool } from '../../src/index.js';
import { ajvOracle } from './ajvOracle.js';
import { publishedCorpus } from './publishedCorpus.js';
import { PUBLISHED_SCHEMAS } from './publishedSchemas.js';

const oracle = ajvOracle();

/** malformedInput reads only the published schema: a tool shell carrying one is enough to test it. */
function shell(name: string, inputSchema: Record<string, unknown>): AnyTool {
  return { name, inputSchema } as unknown as AnyTool;
}

describe('malformedInput over the published form', () => {
  const seen = new Set<Malformation>();

  it.each(Object.entries(PUBLISHED_SCHEMAS))('breaks %s only in ways ajv refuses', (name, schema) => {
    fc.assert(
      fc.property(malformedInput(shell(name, schema)), (broken) => {
        seen.add(broken.malformation);
        expect(oracle(schema, broken.input), `${broken.malformation} at ${JSON.stringify(broken.path)}`).toBe(false);
      }),
      { numRuns: 600, seed: 31 },
    );
  });

  it('breaks each new shape the way its schema gives a handle for', () => {
    for (const kind of [
      'wrong_type',
      'missing_required',
      'explicit_null',
      'too_long',
      'too_short',
      'extra_property',
      'too_many_properties',
      'too_few_properties',
      'bad_property_name',
      'duplicate_item',
      'contains_unmet',
      'unknown_discriminator',
      'no_alternative',
      'out_of_range',
      'not_an_integer',
      'enum_near_miss',
      'pattern_miss',
      'deep_nesting',
      'not_an_object',
      'not_a_multiple',
      'format_miss',
      'excluded_by_not',
      'condition_unmet',
    ] satisfies Malformation[]) {
      expect(seen, kind).toContain(kind);
    }
  });

  it('breaks a recursive schema below its first level, and inside a discriminated union alternative', () => {
    const paths: string[] = [];
    const tree = PUBLISHED_SCHEMAS.recursiveTree!;
    const unions = PUBLISHED_SCHEMAS.unions!;
    for (const [name, schema] of [
      ['tree', tree],
      ['unions', unions],
    ] as const)
      fc.assert(
        fc.property(malformedInput(shell(name, schema)), (broken) => {
          paths.push(`${broken.malformation} ${JSON.stringify(broken.path)}`);
        }),
        { numRuns: 1000, seed: 3 },
      );
    expect(paths).toContain('wrong_type ["root","children",0,"label"]');
    expect(paths).toContain('missing_required ["root","children",0,"children"]');
    expect(paths).toContain('unknown_discriminator ["shape","kind"]');
    expect(paths).toContain('wrong_type ["shape","radius"]');
    expect(paths).toContain('extra_property ["shape","extra"]');
  });

  it('breaks the values of keys patternProperties and additionalProperties bind', () => {
    const paths = new Set<string>();
    const schema = PUBLISHED_SCHEMAS.openObjects!;
    fc.assert(
      fc.property(malformedInput(shell('open', schema)), (broken) => {
        const shape = broken.path.map((key) => (key === 'labels' || key === 'env' ? key : typeof key));
        paths.add(`${broken.malformation} ${JSON.stringify(shape)}`);
      }),
      { numRuns: 1000, seed: 3 },
    );
    expect(paths).toContain('wrong_type ["labels","string"]');
    expect(paths).toContain('wrong_type ["env","string"]');
  });
});

describe('a schema no value satisfies', () => {
  it('is refused with a UsageError naming the tool, not searched forever', () => {
    const schema = { type: 'object', properties: { never: false }, required: ['never'], additionalProperties: false };
    const tool = shell('impossible', schema);
    expect(() => validInput(tool)).toThrow(
      expect.objectContaining({
        name: 'UsageError',
        code: 'unsatisfiable_schema',
        message: expect.stringContaining("Tool 'impossible'"),
      }),
    );
    expect(() => malformedInput(tool)).toThrow(expect.objectContaining({ code: 'unsatisfiable_schema' }));
    const cycle = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' } },
      required: ['a'],
      $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A' } },
    };
    expect(() => validInput(shell('cycle', cycle))).toThrow(expect.objectContaining({ code: 'unsatisfiable_schema' }));
  });
});

describe('malformedInput against the binder', () => {
  it.each(Object.entries(PUBLISHED_SCHEMAS))(
    'breaks %s where the binder refuses: the place it names',
    (name, schema) => {
      const tool = defineTool({ name, description: 'A tool.', input: schema as never, run: () => 'ok' });
      fc.assert(
        fc.property(malformedInput(tool), (broken) => {
          const result = tool.bind(broken.input);
          expect(result.ok).toBe(false);
          if (result.ok) return;
          // Nesting past the depth limit is refused where it crosses the limit; a value no union alternative
          // takes, where the closest alternative refused it: both inside the place broken.
          const inside =
            result.invalid.code === 'too_deep' || ['no_alternative', 'condition_unmet'].includes(broken.malformation);
          const named = inside ? result.invalid.path.slice(0, broken.path.length) : result.invalid.path;
          expect(named, `${broken.malformation}: ${result.invalid.message}`).toEqual(broken.path);
        }),
        { numRuns: 500, seed: 19 },
      );
    },
  );
});

describe('dependentRequired', () => {
  it('is broken by leaving out what a given property needs, refused at the property left out', () => {
    const schema = PUBLISHED_SCHEMAS.dependentRequired!;
    const tool = defineTool({ name: 'pay', description: 'Pays.', input: schema as never, run: () => 'ok' });
    const seen = new Set<string>();
    fc.assert(
      fc.property(malformedInput(tool), (broken) => {
        seen.add(`${broken.malformation} ${JSON.stringify(broken.path)}`);
        const result = tool.bind(broken.input);
        expect(result.ok ? [] : result.invalid.path.slice(0, broken.path.length)).toEqual(broken.path);
      }),
      { numRuns: 500, seed: 2 },
    );
    expect(seen).toContain('missing_required ["card","cvc"]');
  });
});

describe('malformedInput over the corpus of real schemas, as published', () => {
  it.each(publishedCorpus())('breaks %s only in ways ajv refuses', (_name, schema) => {
    fc.assert(
      fc.property(malformedInput(shell('corpus_tool', schema)), (broken) => {
        expect(oracle(schema, broken.input), `${broken.malformation} at ${JSON.stringify(broken.path)}`).toBe(false);
      }),
      { numRuns: 20, seed: 29 },
    );
  });
});
