import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  AgentConfigurationError,
  ScriptedTransport,
  ToolDeclarationError,
  defineTool,
} from '../../src/index.js';
import { caught } from '../support/caught.js';

const payInput = {
  type: 'object',
  properties: {
    recipient: { type: 'string' },
    amount: { type: 'number' },
    to: { type: 'object', properties: { iban: { type: 'string' } } },
  },
} as const;
const run = () => 'ok';

function declare(extra: Record<string, unknown>) {
  return () => defineTool({ name: 'pay', description: 'Pays.', input: payInput, run, ...extra } as never);
}

function refused(extra: Record<string, unknown>): ToolDeclarationError {
  return caught(declare(extra), ToolDeclarationError);
}

describe('provenance declarations on defineTool', () => {
  it('keeps sensitive, outsideAuthored and onTaint on the tool, frozen copies of the lists', () => {
    const sensitive = ['recipient', 'to.iban'];
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      input: payInput,
      run,
      privileged: true,
      sensitive,
      onTaint: 'approve',
    });
    sensitive.push('amount');
    expect(pay.sensitive).toEqual(['recipient', 'to.iban']);
    expect(Object.isFrozen(pay.sensitive)).toBe(true);
    expect(pay.onTaint).toBe('approve');
    expect(pay.outsideAuthored).toBeUndefined();
    const list = defineTool({
      name: 'list_transactions',
      description: 'Lists.',
      input: { type: 'object', properties: {} },
      run,
      untrusted: true,
      outsideAuthored: ['[].subject'],
    });
    expect(list.outsideAuthored).toEqual(['[].subject']);
    expect(list.sensitive).toBeUndefined();
    expect(list.onTaint).toBeUndefined();
  });

  it('takes outsideAuthored on any tool (a write tool answers with what others wrote), [] saying no field is', () => {
    const declared = (flags: object, outsideAuthored: string[]) =>
      defineTool({
        name: 't',
        description: 'T.',
        input: { type: 'object', properties: {} },
        run,
        outsideAuthored,
        ...flags,
      });
    expect(declared({ privileged: true }, ['description']).outsideAuthored).toEqual(['description']);
    expect(declared({}, ['notes']).outsideAuthored).toEqual(['notes']);
    expect(declared({ privileged: true }, []).outsideAuthored).toEqual([]);
  });

  it.each([
    ['sensitive', { privileged: true, sensitive: 'recipient' }, 'sensitive', /non-empty list of argument paths/],
    ['sensitive', { privileged: true, sensitive: [] }, 'sensitive', /non-empty list/],
    ['sensitive', { privileged: true, sensitive: ['recipient', 7] }, 'sensitive[1]', /7/],
    ['sensitive', { privileged: true, sensitive: ['recipient', ''] }, 'sensitive[1]', /sensitive\[1\]/],
    ['sensitive', { privileged: true, sensitive: ['to..iban'] }, 'sensitive[0]', /to\.\.iban/],
    ['sensitive', { privileged: true, sensitive: ['recipient', 'recipient'] }, 'sensitive[1]', /twice/],
    ['sensitive', { sensitive: ['recipient'] }, 'sensitive', /only for a tool that is privileged/],
    ['sensitive', { untrusted: true, sensitive: ['recipient'] }, 'sensitive', /privileged: true/],
    ['sensitive', { privileged: true, sensitive: ['recipeint'] }, 'sensitive[0]', /did you mean 'recipient'/],
    ['sensitive', { privileged: true, sensitive: ['[].x'] }, 'sensitive[0]', /name of an argument/],
    ['outsideAuthored', { untrusted: true, outsideAuthored: { subject: true } }, 'outsideAuthored', /output field/],
    ['onTaint', { privileged: true, onTaint: 'ask' }, 'onTaint', /'block' or 'approve', but it was .*ask/],
    ['onTaint', { onTaint: 'approve' }, 'onTaint', /not privileged/],
    ['onTaint', { untrusted: true, onTaint: 'block' }, 'onTaint', /not privileged/],
  ])('refuses a bad %s with invalid_option and its path (%j)', (_key, extra, path, message) => {
    const error = refused(extra);
    expect(error.code).toBe('invalid_option');
    expect(error.path).toBe(path);
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/^Tool 'pay': /);
  });

  it('accepts any argument path when the schema lists no properties', () => {
    const tool = defineTool({
      name: 'pay',
      description: 'Pays.',
      input: { type: 'object' },
      run,
      privileged: true,
      sensitive: ['anything.below'],
    });
    expect(tool.sensitive).toEqual(['anything.below']);
  });

  it('refuses every sensitive path that does not start with one of the arguments the schema lists', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_]{1,12}$/), (key) => {
        const known = Object.hasOwn(payInput.properties, key);
        const attempt = declare({ privileged: true, sensitive: [`${key}.x`] });
        if (known) expect(attempt).not.toThrow();
        else expect(caught(attempt, ToolDeclarationError).path).toBe('sensitive[0]');
      }),
    );
  });
});

describe("an agent's onTaint", () => {
  it.each([['ask'], [true], [null]])('refuses %j with invalid_agent_option naming onTaint', (onTaint) => {
    const error = caught(
      () => new Agent({ name: 'a', model: 'm', transport: new ScriptedTransport([]), onTaint } as never),
      AgentConfigurationError,
    );
    expect(error.code).toBe('invalid_agent_option');
    expect(error.option).toBe('onTaint');
    expect(error.message).toMatch(/'onTaint' must be 'block' or 'approve'/);
  });

  it("takes 'block' and 'approve'", () => {
    for (const onTaint of ['block', 'approve'] as const)
      expect(() => new Agent({ name: 'a', model: 'm', transport: new ScriptedTransport([]), onTaint })).not.toThrow();
  });
});
