// The defaults a tool's schema declares: applied to each call afresh, whatever their value, and checked against their
// own schema when the tool is defined.
import { describe, expect, it } from 'vitest';
import { ToolDeclarationError } from '../../src/index.js';
import { probeTool } from '../support/probeTool.js';

describe('defaults', () => {
  it('gives each call its own copy of an object default', () => {
    const tool = probeTool({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' } } },
      default: { tags: ['a'] },
    });
    const first = tool.bind({});
    const second = tool.bind({});
    expect(first).toEqual({ ok: true, args: { v: { tags: ['a'] } } });
    (first as { args: { v: { tags: string[] } } }).args.v.tags.push('changed');
    expect(second).toEqual({ ok: true, args: { v: { tags: ['a'] } } });
    expect(tool.bind({})).toEqual({ ok: true, args: { v: { tags: ['a'] } } });
  });

  it('applies a default of null, zero or the empty string', () => {
    expect(probeTool({ type: ['string', 'null'], default: null }).bind({})).toEqual({ ok: true, args: { v: null } });
    expect(probeTool({ type: 'integer', default: 0 }).bind({})).toEqual({ ok: true, args: { v: 0 } });
    expect(probeTool({ type: 'string', default: '' }).bind({ v: null })).toEqual({ ok: true, args: { v: '' } });
  });

  it('refuses, when the tool is defined, a default its own schema refuses', () => {
    const error = (() => {
      try {
        probeTool({ type: 'integer', minimum: 1, default: 0 });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ToolDeclarationError);
    expect(error).toMatchObject({ code: 'invalid_default', tool: 'probe' });
    expect(() => probeTool({ type: 'object', properties: { n: { type: 'integer', default: 'x' } } })).toThrow(
      ToolDeclarationError,
    );
    expect(() => probeTool({ type: 'integer', minimum: 1, default: 1 })).not.toThrow();
  });

  it('names where a default inside array items sits when it refuses it', () => {
    const declare = () =>
      probeTool({ type: 'array', items: { type: 'object', properties: { n: { type: 'integer', default: 'x' } } } });
    expect(declare).toThrow(ToolDeclarationError);
    expect(() => declare()).toThrow(
      expect.objectContaining({ code: 'invalid_default', path: 'input.properties.v.items.properties.n.default' }),
    );
  });
});
