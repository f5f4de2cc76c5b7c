import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  AgentConfigurationError,
  RuleConfigurationError,
  ScriptedTransport,
  ToolDeclarationError,
  defineTool,
  rules,
  type AgentOptions,
} from '../../src/index.js';
import { caught } from '../support/caught.js';

const noInput = { type: 'object', properties: {} } as const;
const declaration = { name: 'send_payment', description: 'Pays.', input: noInput, run: () => 'ok' };
const declare = (extra: Record<string, unknown>) => () => defineTool({ ...declaration, ...extra } as never);
const declarationError = (extra: Record<string, unknown>) => caught(declare(extra), ToolDeclarationError);

/** Anything a plain JavaScript caller or a JSON config could put where a boolean belongs. */
const notBoolean = fc
  .anything({ withBoxedValues: true, withMap: true, withSet: true, withBigInt: true, withDate: true })
  .filter((v) => typeof v !== 'boolean' && v !== undefined);

describe('a tool declaration: every safety option is checked when the tool is defined', () => {
  it.each([
    ['privileged', 'true', `Tool 'send_payment': 'privileged' must be true or false, but it was the string "true".`],
    ['untrusted', 1, `Tool 'send_payment': 'untrusted' must be true or false, but it was the number 1.`],
    ['privileged', null, `Tool 'send_payment': 'privileged' must be true or false, but it was null.`],
  ])('refuses %s: %j, which would have bypassed taint', (option, value, message) => {
    const error = declarationError({ [option]: value });
    expect(error).toMatchObject({ code: 'invalid_option', tool: 'send_payment', path: option, message });
  });

  it('refuses any value but a boolean for a boolean flag', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          'untrusted',
          'privileged',
          'remote',
          'annotations.readOnly',
          'annotations.destructive',
          'annotations.idempotent',
          'annotations.openWorld',
        ),
        notBoolean,
        (path, value) => {
          const [first, second] = path.split('.') as [string, string | undefined];
          const extra = second === undefined ? { [first]: value } : { annotations: { [second]: value } };
          const error = declarationError(extra);
          expect(error.code).toBe('invalid_option');
          expect(error.path).toBe(path);
          expect(error.message).toContain(`'${path}' must be true or false, but it was `);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('accepts true and false, and keeps them', () => {
    expect(defineTool({ ...declaration, untrusted: true, privileged: false })).toMatchObject({
      untrusted: true,
      privileged: false,
    });
  });

  it.each([
    ['policy', 7, `'policy' must be a non-empty string, but it was the number 7.`],
    ['compensatedBy', '', `'compensatedBy' must be a non-empty string, but it was the string "".`],
    ['maxResultLength', '100', `'maxResultLength' must be a whole number of characters, but it was the string "100".`],
    [
      'maxResultLength',
      Number.NaN,
      `'maxResultLength' must be a whole number of characters, but it was the number NaN.`,
    ],
    [
      'maxResultLength',
      Number.POSITIVE_INFINITY,
      `'maxResultLength' must be a whole number of characters, but it was the number Infinity.`,
    ],
    ['maxResultLength', 2.5, `'maxResultLength' must be a whole number of characters, but it was the number 2.5.`],
    [
      'annotations',
      'readOnly',
      `'annotations' must be an object such as { readOnly: true }, but it was the string "readOnly".`,
    ],
    ['annotations', [true], `'annotations' must be an object such as { readOnly: true }, but it was the array [true].`],
    ['annotations.title', 3, `'annotations.title' must be a string, but it was the number 3.`],
  ])('refuses %s: %j', (option, value, message) => {
    const [first, second] = option.split('.') as [string, string | undefined];
    const error = declarationError(second === undefined ? { [first]: value } : { [first]: { [second]: value } });
    expect(error).toMatchObject({ code: 'invalid_option', path: option, message: `Tool 'send_payment': ${message}` });
  });

  it('refuses a misspelt option rather than ignoring it: a misspelt flag is a missing flag', () => {
    const error = declarationError({ priviledged: true });
    expect(error).toMatchObject({ code: 'invalid_option', path: 'priviledged' });
    expect(error.message).toBe(
      `Tool 'send_payment': 'priviledged' is not an option of a tool (did you mean 'privileged'?). The options ` +
        `are 'name', 'description', 'input', 'run', 'output', 'untrusted', 'privileged', 'policy', ` +
        `'compensatedBy', 'maxResultLength', 'annotations', 'remote', 'sensitive', 'outsideAuthored', 'onTaint', ` +
        `'renameUnsafeProperties'.`,
    );
    expect(declarationError({ annotations: { readOnlyHint: true } })).toMatchObject({
      path: 'annotations.readOnlyHint',
      message:
        `Tool 'send_payment': 'annotations.readOnlyHint' is not an annotation (did you mean 'readOnly'?). The ` +
        `annotations are 'title', 'readOnly', 'destructive', 'idempotent', 'openWorld'.`,
    });
  });

  it('refuses a declaration that is not an object, and a description that is not a string', () => {
    expect(caught(() => defineTool(undefined as never), ToolDeclarationError)).toMatchObject({
      code: 'not_a_declaration',
      message: 'defineTool needs a declaration ({ name, description, input, run }), but it was undefined.',
    });
    expect(declarationError({ description: 42 })).toMatchObject({
      code: 'invalid_option',
      path: 'description',
      message: `Tool 'send_payment': 'description' must be a string, but it was the number 42.`,
    });
  });
});

describe("an agent's safety options are checked when it is constructed", () => {
  const tool = defineTool({ ...declaration });
  const options = (extra: Record<string, unknown>) =>
    ({ name: 'payer', model: 'm', transport: new ScriptedTransport([]), tools: [tool], ...extra }) as AgentOptions;
  const configurationError = (extra: Record<string, unknown>) =>
    caught(() => new Agent(options(extra)), AgentConfigurationError);

  it.each([
    ['mode', 'Shadow', `Agent 'payer': 'mode' must be 'live' or 'shadow', but it was the string "Shadow".`],
    [
      'authorizer',
      ['payments'],
      `Agent 'payer': 'authorizer' must be a function (policy) => boolean, such as policies('payments'), but ` +
        'it was the array ["payments"].',
    ],
    [
      'approvalRequired',
      true,
      `Agent 'payer': 'approvalRequired' must be a function (tool, input) => boolean, but it was the boolean true.`,
    ],
    ['maxHandoffs', 0, `Agent 'payer': 'maxHandoffs' must be a whole number of at least 1, but it was the number 0.`],
    ['maxTurns', '3', `Agent 'payer': 'maxTurns' must be a whole number of at least 1, but it was the string "3".`],
    ['temperature', '0.5', `Agent 'payer': 'temperature' must be a number, but it was the string "0.5".`],
    [
      'thinking',
      'yes',
      `Agent 'payer': 'thinking' must be { budgetTokens: number } or { type: 'adaptive' }, but it was ` +
        'the string "yes".',
    ],
    [
      'rules',
      { terminal: 'send_payment' },
      `Agent 'payer': 'rules' must be a list such as [rules.terminal('close_ticket')], but it was the object ` +
        '{"terminal":"send_payment"}.',
    ],
    [
      'rules',
      [null],
      `Agent 'payer': rules[0] must be a rule made with rules.require, rules.terminal or rules.limit, but it was null.`,
    ],
    [
      'rules',
      [{ kind: 'forbid', tool: 'send_payment' }],
      `Agent 'payer': rules[0] must be a rule made with rules.require, rules.terminal or rules.limit, but it ` +
        'was the object {"kind":"forbid","tool":"send_payment"}.',
    ],
    [
      'rules',
      [{ kind: 'terminal', tool: 3 }],
      `Agent 'payer': rules[0] (a terminal rule) needs 'tool', the name of one of the agent's tools, but it ` +
        'was the number 3.',
    ],
    [
      'rules',
      [{ kind: 'require', tool: 'send_payment' }],
      `Agent 'payer': rules[0] (a require rule) needs 'prerequisite', the name of one of the agent's tools, ` +
        'but it was undefined.',
    ],
  ])('refuses %s: %j', (option, value, message) => {
    const error = configurationError({ [option]: value });
    expect(error.message).toBe(message);
    expect(error.option).toBe(option === 'rules' && Array.isArray(value) ? 'rules[0]' : option);
  });

  it('refuses a misspelt option: a misspelt approvalRequired would run every call unapproved', () => {
    const error = configurationError({ approvalrequired: () => true });
    expect(error.option).toBe('approvalrequired');
    expect(error.message).toBe(
      `Agent 'payer': 'approvalrequired' is not an option of an agent (did you mean 'approvalRequired'?). The ` +
        `options are 'name', 'model', 'system', 'tools', 'transport', 'maxTurns', 'maxTokens', 'temperature', ` +
        `'thinking', 'toolChoice', 'stopSequences', 'cacheControl', 'metadata', 'container', 'clock', 'rules', ` +
        `'authorizer', 'mode', 'handoffs', 'maxHandoffs', 'approvalRequired', 'suspensionKey', 'onTaint', 'telemetry'.`,
    );
  });

  it('refuses a function where a boolean-valued option is a function, or any other value for a function option', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('authorizer', 'approvalRequired', 'clock'),
        fc.anything().filter((v) => v !== undefined),
        (option, value) => {
          expect(configurationError({ [option]: value }).option).toBe(option);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('limits and the tools rules name', () => {
  const email = defineTool({ name: 'send_email', description: 'E.', input: noInput, run: () => 'sent' });
  const close = defineTool({ name: 'close_ticket', description: 'C.', input: noInput, run: () => 'closed' });
  const agentWith = (rule: unknown) => () =>
    new Agent({
      name: 'desk',
      model: 'm',
      transport: new ScriptedTransport([]),
      tools: [email, close],
      rules: [rule as never],
    });

  it.each([
    [0, 'the number 0'],
    [1.5, 'the number 1.5'],
    [Number.NaN, 'the number NaN'],
    [Number.POSITIVE_INFINITY, 'the number Infinity'],
    [-2, 'the number -2'],
    ['2', 'the string "2"'],
  ])('refuses a limit of %s when the agent is constructed', (maxCalls, shown) => {
    const error = caught(agentWith(rules.limit('send_email', maxCalls as number)), RuleConfigurationError);
    expect(error.tool).toBe('send_email');
    expect(error.message).toBe(
      `Agent 'desk': the limit on 'send_email' must be a whole number of calls of at least 1, but it was ` +
        `${shown}. To forbid a tool, leave it out of the agent's tools.`,
    );
  });

  it('accepts the largest whole limits', () => {
    expect(agentWith(rules.limit('send_email', 1))).not.toThrow();
    expect(agentWith(rules.limit('send_email', Number.MAX_SAFE_INTEGER))).not.toThrow();
  });

  it.each([
    [rules.limit('send_emial', 2), 'limit', 'send_emial'],
    [rules.terminal('close_tikcet'), 'terminal', 'close_tikcet'],
  ])('refuses a %j rule naming a misspelt tool, listing the tools', (rule, kind, misspelt) => {
    const error = caught(agentWith(rule), RuleConfigurationError);
    expect(error.tool).toBe(misspelt);
    expect(error.message).toBe(
      `Agent 'desk': a ${kind} rule names '${misspelt}', which this agent has no tool for. Its tools are ` +
        `'send_email', 'close_ticket'.`,
    );
  });
});
