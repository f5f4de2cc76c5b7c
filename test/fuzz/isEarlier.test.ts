import { describe, expect, it } from 'vitest';
import { isEarlier } from '../../src/fuzz/isEarlier.js';
import { PUBLISHED_SCHEMAS } from './publishedSchemas.js';

describe('isEarlier: declaration order over the published form', () => {
  const schema = {
    type: 'object',
    properties: {
      user: { $ref: '#/$defs/User' },
      point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
      shape: (PUBLISHED_SCHEMAS.unions!.properties as Record<string, unknown>).shape,
    },
    additionalProperties: true,
    $defs: { User: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } } } },
  };

  it('reads properties through a $ref in their declared order', () => {
    expect(isEarlier(schema, ['user', 'name'], ['user', 'email'])).toBe(true);
    expect(isEarlier(schema, ['user', 'email'], ['user', 'name'])).toBe(false);
  });

  it('puts an undeclared key after every declared one, and a place before the places inside it', () => {
    expect(isEarlier(schema, ['shape'], ['extra'])).toBe(true);
    expect(isEarlier(schema, ['extra'], ['shape'])).toBe(false);
    expect(isEarlier(schema, ['point'], ['point', 2])).toBe(true);
    expect(isEarlier(schema, ['point', 0], ['point', 1])).toBe(true);
  });

  it('reads a union through the alternative that declares the key', () => {
    expect(isEarlier(schema, ['shape', 'kind'], ['shape', 'radius'])).toBe(true);
    expect(isEarlier(schema, ['shape', 'side'], ['shape', 'kind'])).toBe(false);
  });
});
