/**
 * Published schemas (the normalised form of SCHEMA_SPEC) covering every keyword the binder
 * checks, written for the arbitraries' tests. Each is an object schema, as a tool's input is.
 */
export const PUBLISHED_SCHEMAS: Record<string, Record<string, unknown>> = {
  pydanticDefs: {
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1 },
      limit: { anyOf: [{ type: 'integer', minimum: 1, maximum: 50 }, { type: 'null' }], default: null },
      sort: { $ref: '#/$defs/Sort', default: 'asc' },
      owner: { anyOf: [{ $ref: '#/$defs/User' }, { type: 'null' }] },
      order: { anyOf: [{ $ref: '#/$defs/Sort' }, { type: 'null' }] },
      level: { anyOf: [{ type: 'string', enum: ['low', 'high'] }, { type: 'null' }] },
      tags: { type: 'array', items: { type: 'string', maxLength: 8 }, uniqueItems: true, default: [] },
    },
    // `sort` is required and has a default: left out, it takes the default (the binder's difference 7).
    required: ['query', 'sort'],
    additionalProperties: false,
    $defs: {
      Sort: { type: 'string', enum: ['asc', 'desc'] },
      User: {
        type: 'object',
        properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } },
        required: ['name'],
        additionalProperties: false,
      },
    },
  },
  recursiveTree: {
    type: 'object',
    properties: { root: { $ref: '#/definitions/Node' } },
    required: ['root'],
    additionalProperties: false,
    definitions: {
      Node: {
        type: 'object',
        properties: {
          label: { type: 'string', maxLength: 5 },
          children: { type: 'array', items: { $ref: '#/definitions/Node' } },
        },
        required: ['label', 'children'],
        additionalProperties: false,
      },
    },
  },
  recursiveRoot: {
    type: 'object',
    properties: { value: { type: 'integer' }, next: { anyOf: [{ $ref: '#' }, { type: 'null' }] } },
    required: ['value', 'next'],
    additionalProperties: false,
  },
  optionalRecursion: {
    type: 'object',
    properties: {
      comment: { $ref: '#/$defs/Comment' },
      list: { type: 'array', items: { $ref: '#/$defs/Comment' }, contains: { $ref: '#/$defs/Comment' } },
    },
    required: ['comment'],
    additionalProperties: false,
    $defs: {
      Comment: {
        type: 'object',
        properties: {
          text: { type: 'string', maxLength: 10 },
          parent: { $ref: '#/$defs/Comment' },
          replies: { type: 'array', items: { $ref: '#/$defs/Comment' }, contains: { $ref: '#/$defs/Comment' } },
        },
        required: ['text'],
        additionalProperties: false,
      },
    },
  },
  freeForm: {
    type: 'object',
    properties: { metadata: { type: 'object' }, anything: {}, yes: true, no: false },
    additionalProperties: false,
  },
  openObjects: {
    type: 'object',
    properties: {
      labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 3 },
      env: {
        type: 'object',
        patternProperties: { '^[A-Z_]+$': { type: 'string' } },
        additionalProperties: false,
        minProperties: 1,
      },
      headers: { type: 'object', propertyNames: { pattern: '^x-[a-z]+$' }, additionalProperties: true },
    },
    required: ['env'],
    additionalProperties: true,
  },
  dependentRequired: {
    type: 'object',
    properties: {
      card: {
        type: 'object',
        properties: { number: { type: 'string' }, cvc: { type: 'string' } },
        dependentRequired: { number: ['cvc'] },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  nullInAmbiguousUnion: {
    type: 'object',
    properties: {
      // As OpenAI's createChatCompletion publishes `stop`: null matches two alternatives, so oneOf refuses it.
      stop: { oneOf: [{ type: ['string', 'null'] }, { type: 'array', items: { type: 'string' } }, { type: 'null' }] },
    },
    additionalProperties: false,
  },
  typesAndValues: {
    type: 'object',
    properties: {
      either: { type: ['string', 'number'] },
      maybe: { type: ['object', 'null'], properties: { a: { type: 'integer' } }, additionalProperties: false },
      anyValue: {},
      kind: { const: { shape: 'circle', sides: [0] } },
      choice: { enum: [1, 'one', [1], { n: 1 }, null] },
      price: { type: 'number', multipleOf: 0.01, exclusiveMinimum: 0, exclusiveMaximum: 1000 },
      count: { type: 'integer', multipleOf: 5, minimum: -20, maximum: 20 },
      code: { type: 'string', pattern: '^[A-Z]{3}$' },
    },
    required: ['either', 'kind'],
    additionalProperties: false,
  },
  formats: {
    type: 'object',
    properties: Object.fromEntries(
      ['date-time', 'date', 'time', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uuid'].map((format) => [
        format,
        { type: 'string', format },
      ]),
    ),
    required: ['date-time', 'email', 'uri', 'uuid'],
    additionalProperties: false,
  },
  arrays: {
    type: 'object',
    properties: {
      point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false, minItems: 2 },
      row: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'integer' } },
      anything: { type: 'array' },
      flags: { type: 'array', items: { type: 'boolean' }, uniqueItems: true },
      ids: { type: 'array', items: { type: 'integer' }, contains: { minimum: 100 }, minContains: 2, maxContains: 3 },
      some: { type: 'array', items: { type: 'string' }, contains: { const: 'admin' } },
    },
    required: ['point', 'ids'],
    additionalProperties: false,
  },
  unions: {
    type: 'object',
    properties: {
      shape: {
        oneOf: [
          {
            type: 'object',
            properties: { kind: { const: 'circle' }, radius: { type: 'number', minimum: 0 } },
            required: ['kind', 'radius'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { kind: { const: 'square' }, side: { type: 'number', minimum: 0 } },
            required: ['kind', 'side'],
            additionalProperties: false,
          },
        ],
      },
      idOrName: { anyOf: [{ type: 'integer' }, { type: 'string', minLength: 1 }] },
      // As OpenAI's content parts: one discriminator value ('text') is also a word a breaker might try.
      part: {
        anyOf: [
          {
            type: 'object',
            properties: { type: { type: 'string', enum: ['text'] }, text: { type: 'string' } },
            required: ['type', 'text'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { type: { type: 'string', enum: ['image'] }, url: { type: 'string' } },
            required: ['type', 'url'],
            additionalProperties: false,
          },
        ],
      },
      overlapping: { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] },
      notEmpty: { type: 'string', not: { const: '' } },
      conditional: {
        type: 'object',
        properties: { country: { type: 'string', enum: ['US', 'CA'] }, zip: { type: 'string' } },
        required: ['country'],
        if: { properties: { country: { const: 'US' } } },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword; this object is never awaited.
        then: { properties: { zip: { pattern: '^[0-9]{5}$' } } },
        else: { properties: { zip: { pattern: '^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$' } } },
        additionalProperties: false,
      },
    },
    required: ['shape'],
    additionalProperties: false,
  },
  booleans: {
    type: 'object',
    properties: { open: true, closed: false, list: { type: 'array', items: true } },
    additionalProperties: false,
  },
};
