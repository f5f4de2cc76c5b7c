import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineTool, type ArgsOf, type InferJsonSchema, type ToolInput } from '../../src/index.js';

// Type tests: `npm test` runs tsc over this file, so a wrong inference or a schema the types refuse
// fails the build. The tools are defined inside functions that never run: only their types are tested
// here (what the binder does with these schemas is tested in binder and corpus tests).
const typed = (check: () => void) => expect(typeof check).toBe('function');

describe('defineTool accepts real JSON Schema', () => {
  it('takes a schema loaded from JSON, typed Record<string, unknown> or any, with object arguments', () => {
    const fromFile: Record<string, unknown> = JSON.parse('{"type":"object"}');
    // biome-ignore lint/suspicious/noExplicitAny: a schema typed `any` is what this test is about.
    const untyped: any = JSON.parse('{"type":"object"}');
    typed(() => {
      defineTool({
        name: 'loaded',
        input: fromFile,
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
          return '';
        },
      });
      defineTool({
        name: 'untyped',
        input: untyped,
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
          return '';
        },
      });
    });
  });

  it('takes the keywords pydantic, zod, MCP servers and OpenAPI documents write', () => {
    const pydantic = {
      $defs: { Unit: { type: 'string', enum: ['kg', 'lb'], title: 'Unit' } },
      type: 'object',
      title: 'ShipArgs',
      properties: {
        unit: { $ref: '#/$defs/Unit' },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Note' },
        metadata: { type: 'object', additionalProperties: true },
        point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
        labels: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, propertyNames: { maxLength: 20 } },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, contains: { const: 'main' } },
        amount: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.01 },
        legacy: { type: 'integer', minimum: 0, exclusiveMinimum: true },
        pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
        both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { required: ['a'] }] },
        either: {
          oneOf: [
            { type: 'string', format: 'email' },
            { type: 'string', format: 'uri' },
          ],
        },
        not42: { type: 'integer', not: { const: 42 } },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword; the schema is never awaited.
        country: { type: 'string', if: { const: 'US' }, then: { minLength: 2 }, else: { maxLength: 3 } },
        openapi: { type: 'string', nullable: true, example: 'x', 'x-order': 3, discriminator: { propertyName: 'k' } },
        anything: true,
      },
      required: ['unit'],
      dependentRequired: { a: ['b'] },
      minProperties: 1,
      definitions: { Old: { type: 'string' } },
      $comment: 'generated',
    } as const;
    expectTypeOf(pydantic).toExtend<ToolInput>();
    const rootRef = { $ref: '#/$defs/Args', $defs: { Args: { type: 'object' } } } as const;
    expectTypeOf(rootRef).toExtend<ToolInput>();
    const rootUnion = { anyOf: [{ type: 'object' }, { type: 'object', properties: {} }] } as const;
    expectTypeOf(rootUnion).toExtend<ToolInput>();
  });

  it('still catches a keyword with a value of the wrong kind, and a root that is not an object', () => {
    typed(() => {
      defineTool({
        name: 'a',
        // @ts-expect-error: minLength is a number
        input: { type: 'object', properties: { s: { type: 'string', minLength: '3' } } },
        run: () => '',
      });
      // @ts-expect-error: not a JSON type
      defineTool({ name: 'b', input: { type: 'object', properties: { s: { type: 'strnig' } } }, run: () => '' });
      // @ts-expect-error: a tool's input is an object
      defineTool({ name: 'c', input: { type: 'string' }, run: () => '' });
      // @ts-expect-error: required lists names
      defineTool({ name: 'd', input: { type: 'object', required: [1] }, run: () => '' });
    });
  });
});

describe('run is typed from a JSON Schema literal', () => {
  it('types the nullable idiom as T | null, present when it has a default', () => {
    typed(() => {
      defineTool({
        name: 'nullable',
        input: {
          type: 'object',
          properties: {
            withDefault: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
            optional: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
            pair: { type: ['string', 'null'] },
            openapi: { type: 'string', nullable: true },
          },
        },
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<{
            withDefault: string | null;
            optional?: number | null;
            pair?: string | null;
            openapi?: string | null;
          }>();
          return '';
        },
      });
    });
  });

  it('types anyOf and oneOf as the union of their alternatives, the union node keywords merged in', () => {
    type Shape = InferJsonSchema<{
      oneOf: [
        { type: 'object'; properties: { kind: { const: 'circle' }; r: { type: 'number' } }; required: ['kind', 'r'] },
        { type: 'object'; properties: { kind: { const: 'square' }; side: { type: 'number' } }; required: ['kind'] },
      ];
    }>;
    expectTypeOf<Shape>().toEqualTypeOf<{ kind: 'circle'; r: number } | { kind: 'square'; side?: number }>();

    type Merged = InferJsonSchema<{
      type: 'object';
      properties: { id: { type: 'string' } };
      required: ['id'];
      anyOf: [
        { properties: { email: { type: 'string' } }; required: ['email'] },
        { properties: { phone: { type: 'string' } } },
      ];
    }>;
    expectTypeOf<Merged>().toEqualTypeOf<{ id: string; email: string } | { id: string; phone?: string }>();

    type Scalar = InferJsonSchema<{ anyOf: [{ type: 'string' }, { type: 'number' }, true] }>;
    expectTypeOf<Scalar>().toEqualTypeOf<unknown>();
  });

  it('types a type array as the union of its types', () => {
    expectTypeOf<InferJsonSchema<{ type: ['string', 'number'] }>>().toEqualTypeOf<string | number>();
    expectTypeOf<
      InferJsonSchema<{ type: ['object', 'null']; properties: { a: { type: 'boolean' } }; required: ['a'] }>
    >().toEqualTypeOf<{ a: boolean } | null>();
    expectTypeOf<InferJsonSchema<{ type: ['array', 'integer']; items: { type: 'string' } }>>().toEqualTypeOf<
      string[] | number
    >();
  });

  it('types const and enum of any JSON as their values', () => {
    typed(() => {
      defineTool({
        name: 'values',
        input: {
          type: 'object',
          properties: {
            point: { const: { x: 1, y: [2, 3] } },
            mixed: { enum: [1, 'one', null, true, [1]] },
          },
          required: ['point', 'mixed'],
        },
        run: (args) => {
          expectTypeOf(args.point).toEqualTypeOf<{ readonly x: 1; readonly y: readonly [2, 3] }>();
          expectTypeOf(args.mixed).toEqualTypeOf<1 | 'one' | null | true | readonly [1]>();
          return '';
        },
      });
    });
  });

  it('types prefixItems as a tuple: the first minItems present, items as the rest', () => {
    expectTypeOf<
      InferJsonSchema<{
        type: 'array';
        prefixItems: [{ type: 'string' }, { type: 'number' }];
        items: false;
        minItems: 2;
      }>
    >().toEqualTypeOf<[string, number]>();
    expectTypeOf<
      InferJsonSchema<{
        type: 'array';
        prefixItems: [{ type: 'string' }, { type: 'number' }];
        items: false;
        minItems: 1;
      }>
    >().toEqualTypeOf<[string, number?]>();
    expectTypeOf<
      InferJsonSchema<{ type: 'array'; prefixItems: [{ type: 'string' }]; items: { type: 'boolean' }; minItems: 1 }>
    >().toEqualTypeOf<[string, ...boolean[]]>();
    expectTypeOf<InferJsonSchema<{ type: 'array'; prefixItems: [{ type: 'string' }] }>>().toEqualTypeOf<
      [string?, ...unknown[]]
    >();
    // Draft-07's spelling of the same tuple.
    expectTypeOf<
      InferJsonSchema<{
        type: 'array';
        items: [{ type: 'string' }, { type: 'integer' }];
        additionalItems: false;
        minItems: 2;
      }>
    >().toEqualTypeOf<[string, number]>();
    expectTypeOf<InferJsonSchema<{ type: 'array'; items: true }>>().toEqualTypeOf<unknown[]>();
    expectTypeOf<InferJsonSchema<{ type: 'array'; items: false }>>().toEqualTypeOf<never[]>();
    expectTypeOf<InferJsonSchema<{ type: 'array' }>>().toEqualTypeOf<unknown[]>();
  });

  it('types keys beyond the declared properties from additionalProperties and patternProperties', () => {
    typed(() => {
      defineTool({
        name: 'open',
        input: {
          type: 'object',
          properties: { id: { type: 'string' } },
          required: ['id'],
          additionalProperties: { type: 'number' },
        },
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<{ id: string } & Record<string, number>>();
          expectTypeOf(args.id).toEqualTypeOf<string>();
          return '';
        },
      });
    });
    expectTypeOf<
      InferJsonSchema<{ type: 'object'; properties: { a: { type: 'string' } }; additionalProperties: true }>
    >().toEqualTypeOf<{ a?: string } & Record<string, unknown>>();
    expectTypeOf<
      InferJsonSchema<{ type: 'object'; patternProperties: { '^n_': { type: 'number' }; '^s_': { type: 'string' } } }>
    >().toEqualTypeOf<Record<string, number | string>>();
    expectTypeOf<
      InferJsonSchema<{ type: 'object'; properties: { a: { type: 'string' } }; additionalProperties: false }>
    >().toEqualTypeOf<{ a?: string }>();
  });

  it('types a free-form object as Record<string, unknown>, and a declared one as closed', () => {
    typed(() => {
      defineTool({
        name: 'free',
        input: {
          type: 'object',
          properties: { metadata: { type: 'object' }, attachment: { type: 'object', description: 'Any JSON.' } },
          required: ['metadata'],
        },
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<{
            metadata: Record<string, unknown>;
            attachment?: Record<string, unknown>;
          }>();
          return '';
        },
      });
    });
    // biome-ignore lint/complexity/noBannedTypes: an object with no declared properties and nothing else: no key.
    expectTypeOf<InferJsonSchema<{ type: 'object'; properties: {} }>>().toEqualTypeOf<{}>();
  });

  it('types a $ref as unknown (references are not followed by the types), and a root $ref as an object', () => {
    typed(() => {
      defineTool({
        name: 'refs',
        input: {
          type: 'object',
          $defs: { Unit: { type: 'string', enum: ['kg', 'lb'] } },
          properties: { unit: { $ref: '#/$defs/Unit' } },
          required: ['unit'],
        },
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<{ unit: unknown }>();
          return '';
        },
      });
      defineTool({
        name: 'root_ref',
        input: { $ref: '#/$defs/Args', $defs: { Args: { type: 'object', properties: { a: { type: 'string' } } } } },
        run: (args) => {
          expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
          return '';
        },
      });
    });
  });

  it('types allOf as the intersection of its parts', () => {
    expectTypeOf<
      InferJsonSchema<{
        allOf: [
          { type: 'object'; properties: { a: { type: 'string' } }; required: ['a'] },
          { type: 'object'; properties: { b: { type: 'integer'; default: 1 } } },
        ];
      }>
    >().toEqualTypeOf<{ a: string } & { b: number }>();
  });

  it('types a root without a type as an object: a union of objects, or properties alone', () => {
    type Args = ArgsOf<{
      readonly anyOf: readonly [
        {
          readonly type: 'object';
          readonly properties: { readonly q: { readonly type: 'string' } };
          readonly required: readonly ['q'];
        },
        {
          readonly type: 'object';
          readonly properties: { readonly id: { readonly type: 'integer' } };
          readonly required: readonly ['id'];
        },
      ];
    }>;
    expectTypeOf<Args>().toEqualTypeOf<{ q: string } | { id: number }>();
    expectTypeOf<ArgsOf<{ readonly properties: { readonly a: { readonly type: 'string' } } }>>().toEqualTypeOf<{
      a?: string;
    }>();
  });

  it('types boolean schemas: true is anything, false is nothing', () => {
    expectTypeOf<InferJsonSchema<true>>().toEqualTypeOf<unknown>();
    expectTypeOf<InferJsonSchema<false>>().toEqualTypeOf<never>();
    expectTypeOf<InferJsonSchema<{ type: 'object'; properties: { a: true }; required: ['a'] }>>().toEqualTypeOf<{
      a: unknown;
    }>();
  });

  it('ignores not and if/then/else, which only refuse values', () => {
    expectTypeOf<
      InferJsonSchema<{ type: 'string'; not: { const: '' }; if: { minLength: 3 }; then: { pattern: '^a' } }>
    >().toEqualTypeOf<string>();
  });
});
