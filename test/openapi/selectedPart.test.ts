import { describe, expect, it } from 'vitest';
import { OpenApiError } from '../../src/openapi/index.js';
import { readDocument } from '../../src/openapi/readDocument.js';
import { listedOperations, selectedPart } from '../../src/openapi/selectedPart.js';

const ok = { 200: { description: 'ok' } };
const body = (ref: string) => ({ content: { 'application/json': { schema: { $ref: ref } } } });

/** Two paths, four operations, and components, webhooks and an `x-` field, some reached from each operation. */
function document(version = '3.0.3'): Record<string, unknown> {
  return {
    openapi: version,
    info: { title: 'Parts', version: '1' },
    servers: [{ url: 'https://parts.example' }],
    security: [{ key: [] }],
    paths: {
      '/a/{id}': {
        parameters: [{ $ref: '#/components/parameters/Id' }],
        get: { operationId: 'getA', responses: ok },
        put: { operationId: 'putA', requestBody: body('#/components/schemas/Used'), responses: ok },
      },
      '/b': {
        post: { operationId: 'postB', requestBody: body('#/components/schemas/OnlyB'), responses: ok },
        patch: {
          operationId: 'patchB',
          // Points into another operation, not selected: that operation is read with it.
          requestBody: { $ref: '#/paths/~1b/post/requestBody' },
          responses: ok,
        },
      },
    },
    components: {
      schemas: {
        Used: { type: 'object', properties: { inner: { $ref: '#/components/schemas/Inner' } } },
        Inner: { type: 'object', properties: { extra: { $ref: '#/x-shared/Extra' } } },
        OnlyB: { type: 'object', properties: { n: { type: 'integer' } } },
        Unused: { type: 'object' },
      },
      parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'string' } } },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    },
    'x-shared': { Extra: { type: 'string' } },
    'x-unused': { big: true },
  };
}

const labels = (...names: string[]) => new Set(names);

describe('selectedPart: what of a document the parser is given', () => {
  it('keeps the selected operations and what their $refs reach, transitively; drops the rest', () => {
    const raw = document();
    const part = selectedPart(raw, labels('PUT /a/{id}'));
    expect(part).toEqual({
      openapi: '3.0.3',
      info: raw.info,
      servers: raw.servers,
      security: raw.security,
      paths: {
        '/a/{id}': {
          parameters: [{ $ref: '#/components/parameters/Id' }],
          put: (raw.paths as Record<string, Record<string, unknown>>)['/a/{id}']!.put,
        },
        '/b': {},
      },
      components: {
        schemas: {
          Used: (raw.components as { schemas: Record<string, unknown> }).schemas.Used,
          Inner: (raw.components as { schemas: Record<string, unknown> }).schemas.Inner,
        },
        parameters: (raw.components as { parameters: unknown }).parameters,
        securitySchemes: (raw.components as { securitySchemes: unknown }).securitySchemes,
      },
      'x-shared': raw['x-shared'],
    });
    expect(raw).toEqual(document()); // the document given is never changed
  });

  it('reads an operation another selected one points into, and a webhook one points to', () => {
    const raw = document('3.1.0');
    raw.webhooks = { reached: { post: { responses: ok } }, other: { post: { responses: ok } } };
    const paths = raw.paths as Record<string, Record<string, Record<string, unknown>>>;
    paths['/a/{id}']!.get!.callbacks = { done: { $ref: '#/webhooks/reached' } };
    const part = selectedPart(raw, labels('GET /a/{id}', 'PATCH /b'));
    expect(Object.keys((part.paths as Record<string, object>)['/b']!)).toEqual(['patch', 'post']);
    expect(part.webhooks).toEqual({ reached: { post: { responses: ok } } });
    expect((part.components as { schemas: object }).schemas).toEqual({
      OnlyB: { type: 'object', properties: { n: { type: 'integer' } } },
    });
  });

  it('gives the whole document where a $ref could be read otherwise than here', () => {
    const withId = document('3.1.0');
    (withId.components as { schemas: Record<string, Record<string, unknown>> }).schemas.Used!.$id = 'https://x/u';
    expect(selectedPart(withId, labels('PUT /a/{id}'))).toBe(withId);
    const ownId = { ...document(), $schema: 'https://spec.openapis.org/oas/3.0/schema/2021-09-28' };
    expect(selectedPart(ownId, labels('PUT /a/{id}'))).toBe(ownId);
    const dangling = document();
    (dangling.components as { schemas: Record<string, unknown> }).schemas.Used = { $ref: '#/components/schemas/Nope' };
    expect(selectedPart(dangling, labels('PUT /a/{id}'))).toBe(dangling);
    const throughRef = document();
    (throughRef.components as { schemas: Record<string, unknown> }).schemas.Used = {
      $ref: '#/components/schemas/Alias/properties/n',
    };
    (throughRef.components as { schemas: Record<string, unknown> }).schemas.Alias = {
      $ref: '#/components/schemas/OnlyB',
    };
    expect(selectedPart(throughRef, labels('PUT /a/{id}'))).toBe(throughRef);
    const root = document();
    (root.components as { schemas: Record<string, unknown> }).schemas.Used = { $ref: '#' };
    expect(selectedPart(root, labels('PUT /a/{id}'))).toBe(root);
  });

  it("still cuts a 3.0 document whose examples hold a '$id' (data, not a base)", () => {
    const raw = document();
    (raw.components as { schemas: Record<string, Record<string, unknown>> }).schemas.Used!.example = { $id: 'abc' };
    expect(selectedPart(raw, labels('PUT /a/{id}'))).not.toBe(raw);
  });

  it('lists operations under a path item that is a $ref, where it points', () => {
    const raw = document('3.1.0');
    (raw.components as Record<string, unknown>).pathItems = {
      C: { delete: { operationId: 'deleteC', responses: ok } },
    };
    (raw.paths as Record<string, unknown>)['/c'] = { $ref: '#/components/pathItems/C' };
    expect(listedOperations(raw).map((o) => o.label)).toEqual([
      'GET /a/{id}',
      'PUT /a/{id}',
      'POST /b',
      'PATCH /b',
      'DELETE /c',
    ]);
    const part = selectedPart(raw, labels('DELETE /c'));
    expect((part.components as Record<string, unknown>).pathItems).toEqual({
      C: { delete: { operationId: 'deleteC', responses: ok } },
    });
  });
});

describe('readDocument', () => {
  it('reads the whole document when the parser cannot follow a $ref of the part it was given', async () => {
    const whole = document();
    const part = selectedPart(whole, labels('PUT /a/{id}'));
    delete (part.components as { schemas: Record<string, unknown> }).schemas.Inner;
    const read = await readDocument(part, 1_000_000, whole);
    expect(Object.keys(read.api.paths as object)).toEqual(['/a/{id}', '/b']);
    expect((read.api.paths as Record<string, Record<string, unknown>>)['/b']!.post).toBeDefined();
    await expect(readDocument(part, 1_000_000)).rejects.toMatchObject({
      code: 'openapi_invalid',
      message: expect.stringMatching(/Fix it[\s\S]*#\/components\/schemas\/Inner/),
    });
  });

  it('refuses a document that contains itself, which no JSON can', async () => {
    const { openApiTools } = await import('../../src/openapi/index.js');
    const text = 'openapi: 3.0.3\ninfo: { title: x, version: "1" }\npaths: {}\nx-loop: &l { again: *l }\n';
    const error = await openApiTools(text, { baseUrl: 'https://x.example' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenApiError);
    expect(error).toMatchObject({
      code: 'openapi_unreadable',
      message: expect.stringMatching(/contains itself at '#\/x-loop\/again'.*Write the value out/),
    });
  });
});
