/** Small inline OpenAPI documents for the openApiTools tests. */
export const BASE = 'https://pets.example/v1';

export const PETS_YAML = `
openapi: 3.0.3
info: { title: Pets, version: '1' }
servers: [{ url: '${BASE}' }]
tags: [{ name: pets }, { name: store }]
paths:
  /pets/{petId}:
    parameters:
      - { name: petId, in: path, required: true, description: The pet's id., schema: { type: string } }
    get:
      operationId: getPetById
      summary: Get a pet
      tags: [pets]
      parameters:
        - { name: fields, in: query, schema: { type: array, items: { type: string } } }
        - { name: X-Trace, in: header, schema: { type: string } }
      responses: { '200': { description: ok } }
    delete:
      operationId: deletePet
      tags: [pets]
      responses: { '204': { description: gone } }
  /pets:
    get:
      operationId: listPets
      tags: [pets]
      parameters:
        - name: tags
          in: query
          style: pipeDelimited
          explode: false
          schema: { type: array, items: { type: string } }
        - name: words
          in: query
          style: spaceDelimited
          explode: false
          schema: { type: array, items: { type: string } }
        - { name: ids, in: query, explode: false, schema: { type: array, items: { type: integer } } }
        - name: filter
          in: query
          style: deepObject
          explode: true
          schema: { type: object, properties: { kind: { type: string }, age: { type: integer } } }
        - name: page
          in: query
          schema: { type: object, properties: { size: { type: integer }, after: { type: string } } }
        - { name: limit, in: query, schema: { type: integer, maximum: 100 } }
      responses: { '200': { description: ok } }
    post:
      operationId: addPet
      summary: Add a pet
      tags: [pets]
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } }
      responses: { '201': { description: created } }
  /pets/{petId}/photo:
    post:
      operationId: uploadPhoto
      tags: [pets]
      parameters:
        - { name: petId, in: path, required: true, schema: { type: string } }
      requestBody:
        content: { multipart/form-data: { schema: { type: object } } }
      responses: { '200': { description: ok } }
  /store/orders:
    post:
      operationId: placeOrder
      tags: [store]
      parameters:
        - { name: Idempotency-Key, in: header, required: true, schema: { type: string } }
      responses: { '200': { description: ok } }
  /store/inventory:
    get:
      tags: [store]
      parameters:
        - { name: session, in: cookie, required: true, schema: { type: string } }
      responses: { '200': { description: ok } }
  /store/search:
    get:
      tags: [store]
      parameters:
        - { name: q, in: query, content: { application/json: { schema: { type: object } } } }
      responses: { '200': { description: ok } }
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        name: { type: string }
        nickname: { type: string, nullable: true }
        parent: { $ref: '#/components/schemas/Pet' }
        children: { type: array, items: { $ref: '#/components/schemas/Pet' } }
`;

/** A one-operation document: `GET /items/{id}` (and `PUT`), for the call tests. */
export function itemsSpec(version = '3.1.0'): Record<string, unknown> {
  return {
    openapi: version,
    info: { title: 'Items', version: '1' },
    paths: {
      '/items/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getItem', responses: { 200: { description: 'ok' } } },
        put: {
          operationId: 'putItem',
          requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { 200: { description: 'ok' } },
        },
      },
    },
  };
}
