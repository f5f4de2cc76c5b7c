import { describe, expect, it } from 'vitest';
import { fanOutSpec, graphSpec, jsonValueCount, referenceSize } from './refGraphSpecs.js';
import { useWatchedParser } from './watchedParser.js';

/**
 * A document whose `$ref`s multiply when followed (issue 31: three `$ref`s to the next schema at each of 14
 * levels, 2 KB, stalled openApiTools for over a minute in the parser's validation). The parser is watched:
 * every document it is asked to validate is kept, and its size with the `$ref`s followed is the work bound.
 * (The suite's test timeout is the hang guard; nothing here is timed.)
 */
const watched = useWatchedParser();
const openApiTools: typeof import('../../src/openapi/index.js').openApiTools = (spec, options) =>
  watched.entry().openApiTools(spec, options);
const isOpenApiError = (error: unknown) => error instanceof watched.entry().OpenApiError;

const DEFAULT_MAX_DOCUMENT_NODES = 1_000_000;

describe('openApiTools: a document whose $refs multiply', () => {
  it('builds the selected operation that uses none of it, and the parser never sees the rest', async () => {
    const spec = fanOutSpec(14);
    expect(JSON.stringify(spec).length).toBeLessThan(3_000);
    const set = await openApiTools(spec, { operationIds: ['ok'] });
    expect(set.tools.map((t) => t.name)).toEqual(['ok']);
    expect(set.skipped).toEqual([
      { operation: 'POST /graph', operationId: 'graph', reason: expect.stringMatching(/^not selected/) },
    ]);
    expect(watched.validated).toHaveLength(1);
    // What the parser validated expands to a few dozen values: the schemas only POST /graph uses were left out.
    expect(referenceSize(watched.validated[0]!, 1_000)).toBeLessThan(100);
  });

  it('refuses it when it is selected, naming the schema, the bound and what to do, before validating', async () => {
    const error = await openApiTools(fanOutSpec(14)).catch((e: unknown) => e);
    expect(isOpenApiError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'openapi_too_large' });
    const message = (error as Error).message;
    expect(message).toContain("'#/components/schemas/A0'");
    expect(message).toContain('more than 1,000,000 nodes');
    expect(message).toMatch(/'operationIds'.*'tags'.*'maxDocumentNodes'/s);
    expect(watched.validated).toEqual([]);
  });

  it('counts with $refs followed: maxDocumentNodes moves the bound; what passes was validated within it', async () => {
    const spec = fanOutSpec(6);
    const size = referenceSize(spec, DEFAULT_MAX_DOCUMENT_NODES);
    expect(size).toBeGreaterThan(2_000);
    await expect(openApiTools(spec, { maxDocumentNodes: size - 1 })).rejects.toMatchObject({
      code: 'openapi_too_large',
      message: expect.stringContaining(`more than ${(size - 1).toLocaleString('en-US')} nodes`),
    });
    expect(watched.validated).toEqual([]);
    const set = await openApiTools(spec, { maxDocumentNodes: size });
    expect(set.tools.map((t) => t.name)).toEqual(['ok', 'graph']);
    expect(watched.validated).toHaveLength(1);
    expect(referenceSize(watched.validated[0]!, size)).toBe(size);
  });

  it('takes a cycle of $refs as one node where it recurs, so a recursive type is no multiplication', async () => {
    // Each type refers to the next three times, and the last back to the first: every $ref leads into the cycle.
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 14; i++) {
      const next = `#/components/schemas/C${(i + 1) % 14}`;
      schemas[`C${i}`] = { type: 'object', properties: { a: { $ref: next }, b: { $ref: next }, c: { $ref: next } } };
    }
    const set = await openApiTools(graphSpec(schemas, 'C0'));
    expect(set.tools.map((t) => t.name)).toEqual(['ok']);
    expect(set.skipped).toEqual([
      { operation: 'POST /graph', operationId: 'graph', reason: expect.stringMatching(/more than 20000 JSON values/) },
    ]);
    expect(referenceSize(watched.validated[0]!, DEFAULT_MAX_DOCUMENT_NODES)).toBeLessThan(1_000);
  });

  it('checks maxDocumentNodes: a whole number of at least 1', async () => {
    for (const bad of [0, 1.5, '10', -1])
      await expect(openApiTools(fanOutSpec(2), { maxDocumentNodes: bad as number })).rejects.toMatchObject({
        code: 'openapi_invalid_option',
        message: expect.stringMatching(/'maxDocumentNodes' must be a whole number of at least 1/),
      });
  });
});

describe("openApiTools: the tool's input schema stays within its bound", () => {
  /** A query parameter `q{i}` for each of `count`, each a `$ref` to `schema`. */
  function parametersSpec(count: number, schemas: Record<string, unknown>, schema: string) {
    const spec = graphSpec(schemas, schema);
    const paths = spec.paths as Record<string, Record<string, Record<string, unknown>>>;
    paths['/ok']!.get!.parameters = Array.from({ length: count }, (_, i) => ({
      name: `q${i}`,
      in: 'query',
      schema: { $ref: `#/components/schemas/${schema}` },
    }));
    return spec;
  }

  it('counts every parameter and the body of an operation together, not each on its own', async () => {
    // A0 expands to about 2,900 values: eight parameters are within the bound one by one, not together.
    const schemas = (fanOutSpec(6).components as { schemas: Record<string, unknown> }).schemas;
    const one = await openApiTools(parametersSpec(1, schemas, 'A0'), { operationIds: ['ok'] });
    const perParameter = jsonValueCount(one.tools[0]!.inputSchema);
    expect(perParameter).toBeGreaterThan(20_000 / 8);
    expect(perParameter).toBeLessThan(20_000 / 2);
    const set = await openApiTools(parametersSpec(8, schemas, 'A0'), { operationIds: ['ok'] });
    expect(set.tools).toEqual([]);
    expect(set.skipped).toContainEqual({
      operation: 'GET /ok',
      operationId: 'ok',
      reason: expect.stringMatching(/more than 20000 JSON values/),
    });
  });

  it("counts a value's shared parts (a default made of $refs) each time, as the JSON sent repeats them", async () => {
    // The default's parts refer to the next level three times: 3^9 copies of the last once written out.
    const values: Record<string, unknown> = {};
    for (let i = 0; i <= 9; i++) {
      const next = { $ref: `#/components/schemas/Holder/x-values/V${i + 1}` };
      values[`V${i}`] = i === 9 ? 'leaf' : { a: next, b: next, c: next };
    }
    const schemas = {
      Holder: { type: 'object', default: { $ref: '#/components/schemas/Holder/x-values/V0' }, 'x-values': values },
    };
    const set = await openApiTools(graphSpec(schemas, 'Holder'));
    expect(set.tools.map((t) => t.name)).toEqual(['ok']);
    expect(set.skipped).toContainEqual({
      operation: 'POST /graph',
      operationId: 'graph',
      reason: expect.stringMatching(/more than 20000 JSON values/),
    });
  });

  it('bounds the schema as published, where constraints beside a union are copied into each alternative', async () => {
    // 60 levels of a small schema, no $ref: each level's properties are copied into its three alternatives, so
    // the schema the model would be shown (and the binder compiled) is 3^60 times the last level.
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 60; i++)
      schema = {
        type: 'object',
        properties: { v: schema, w: { type: 'string', minLength: 1 } },
        anyOf: [{ required: ['v'] }, { required: ['w'] }, { required: ['v', 'w'] }],
      };
    const spec = graphSpec({ Nested: schema }, 'Nested');
    expect(jsonValueCount(spec)).toBeLessThan(2_000);
    const set = await openApiTools(spec);
    expect(set.tools.map((t) => t.name)).toEqual(['ok']);
    expect(set.skipped).toContainEqual({
      operation: 'POST /graph',
      operationId: 'graph',
      // defineTool's own bound on what a union's alternatives copy (docs/tools.md) refuses it first.
      reason: expect.stringMatching(/beside 'anyOf' into each of its alternatives .* more than 100000 schema values/),
    });
  });

  it('bounds the inputs of all the operations together: many operations, each costly, are refused', async () => {
    // A recursive type using the next three times around a cycle of 14: the document stays small (a $ref into the
    // cycle counts once), but each operation's input copies it up to its own bound before it is skipped.
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 14; i++) {
      const next = `#/components/schemas/C${(i + 1) % 14}`;
      schemas[`C${i}`] = { type: 'object', properties: { a: { $ref: next }, b: { $ref: next }, c: { $ref: next } } };
    }
    const spec = graphSpec(schemas, 'C0');
    const paths = spec.paths as Record<string, unknown>;
    const post = (paths['/graph'] as { post: Record<string, unknown> }).post;
    for (let i = 0; i < 60; i++) paths[`/graph${i}`] = { post: { ...post, operationId: `graph${i}` } };
    const error = await openApiTools(spec).catch((e: unknown) => e);
    expect(isOpenApiError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'openapi_too_large',
      message: expect.stringMatching(/inputs of the operations selected.*more than 1,000,000 values together/),
    });
    // What was validated is small: the bound that refused it is the inputs', not the document's.
    expect(referenceSize(watched.validated[0]!, DEFAULT_MAX_DOCUMENT_NODES)).toBeLessThan(10_000);
    const some = await openApiTools(spec, { operationIds: ['graph1', 'graph2'] });
    expect(some.tools).toEqual([]);
    expect(some.skipped.filter((s) => /more than 20000 JSON values/.test(s.reason))).toHaveLength(2);
  });

  it('skips an operation whose value contains itself, which no JSON can hold', async () => {
    const schemas = {
      Holder: {
        type: 'object',
        default: { $ref: '#/components/schemas/Holder/x-loop' },
        'x-loop': { again: { $ref: '#/components/schemas/Holder/x-loop' } },
      },
    };
    const set = await openApiTools(graphSpec(schemas, 'Holder'));
    expect(set.tools.map((t) => t.name)).toEqual(['ok']);
    expect(set.skipped).toContainEqual({
      operation: 'POST /graph',
      operationId: 'graph',
      reason: expect.stringMatching(/its schema's 'default' contains itself/),
    });
  });
});
