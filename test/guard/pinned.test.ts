import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  defineTool,
  reply,
  rules,
  type AgentOptions,
  type ScriptStep,
} from '../../src/index.js';

/** Behaviours the documentation promises that no other test pins down. */

const noInput = { type: 'object', properties: {} } as const;
const counted = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } as const;

function tool(name: string, flags: { untrusted?: boolean; privileged?: boolean; policy?: string } = {}) {
  const run = vi.fn(() => `${name} done`);
  return {
    tool: defineTool({
      name,
      description: `${name}.`,
      input: name === 'send_email' ? counted : noInput,
      run,
      ...flags,
    }),
    run,
  };
}

async function run(options: Partial<AgentOptions> & Pick<AgentOptions, 'tools'>, script: ScriptStep[]) {
  return new Agent({
    name: 'pinned',
    model: 'm',
    transport: new ScriptedTransport([...script, reply.text('Done.')]),
    ...options,
  }).run('go');
}

describe('the taint source', () => {
  it('is the first untrusted tool that succeeded: a later one does not overwrite it', async () => {
    const page = tool('fetch_page', { untrusted: true });
    const mail = tool('read_mail', { untrusted: true });
    const pay = tool('send_payment', { privileged: true });
    const result = await run({ tools: [page.tool, mail.tool, pay.tool] }, [
      reply.toolUse('fetch_page', {}, { id: 'p1' }),
      reply.toolUse('read_mail', {}, { id: 'm1' }),
      reply.toolUse('send_payment', {}),
    ]);
    expect(result.guard.taint).toEqual({ source: 'fetch_page', id: 'p1' });
    expect(result.taintSource).toBe('fetch_page');
    expect(result.blocked).toMatchObject([{ tool: 'send_payment', rule: 'taint', source: 'fetch_page' }]);
  });

  it('is the first in block order when two untrusted tools succeed in one response', async () => {
    const page = tool('fetch_page', { untrusted: true });
    const mail = tool('read_mail', { untrusted: true });
    const result = await run({ tools: [page.tool, mail.tool] }, [
      reply.toolUses([
        { name: 'read_mail', input: {}, id: 'm1' },
        { name: 'fetch_page', input: {}, id: 'p1' },
      ]),
    ]);
    expect(result.guard.taint).toEqual({ source: 'read_mail', id: 'm1' });
  });
});

describe('what counts towards a limit: every call the guard let through', () => {
  it('a call the guard blocked does not count', async () => {
    const verify = tool('verify_identity');
    const email = tool('send_email');
    const result = await run(
      {
        tools: [verify.tool, email.tool],
        rules: [rules.require('send_email', 'verify_identity'), rules.limit('send_email', 1)],
      },
      [
        reply.toolUse('send_email', { n: 1 }),
        reply.toolUse('verify_identity', {}),
        reply.toolUse('send_email', { n: 2 }),
        reply.toolUse('send_email', { n: 3 }),
      ],
    );
    expect(result.toolCalls.map((c) => c.rule ?? c.outcome)).toEqual(['prerequisite', 'ok', 'ok', 'limit']);
    expect(email.run).toHaveBeenCalledTimes(1);
    expect(result.guard.attempts.send_email).toBe(1);
  });

  it('a call to a tool hidden by authorization does not count', async () => {
    const email = tool('send_email', { policy: 'mail' });
    const result = await run({ tools: [email.tool], rules: [rules.limit('send_email', 1)] }, [
      reply.toolUse('send_email', { n: 1 }),
      reply.toolUse('send_email', { n: 2 }),
    ]);
    expect(result.toolCalls.map((c) => c.rule)).toEqual(['authorization', 'authorization']);
    expect(result.guard.attempts.send_email).toBeUndefined();
  });

  it('a call the binder refused counts, and so does a call that failed or was planned', async () => {
    const email = tool('send_email', { privileged: true });
    const invalid = await run({ tools: [email.tool], rules: [rules.limit('send_email', 1)] }, [
      reply.toolUse('send_email', { n: 'one' }),
      reply.toolUse('send_email', { n: 1 }),
    ]);
    expect(invalid.toolCalls.map((c) => c.rule ?? c.outcome)).toEqual(['invalid', 'limit']);
    expect(email.run).not.toHaveBeenCalled();

    const planned = await run({ tools: [email.tool], mode: 'shadow', rules: [rules.limit('send_email', 1)] }, [
      reply.toolUse('send_email', { n: 1 }),
      reply.toolUse('send_email', { n: 2 }),
    ]);
    expect(planned.toolCalls.map((c) => c.rule ?? c.outcome)).toEqual(['shadow', 'limit']);

    const failing = defineTool({
      name: 'send_email',
      description: 'E.',
      input: counted,
      run: () => {
        throw new Error('smtp down');
      },
    });
    const failed = await run({ tools: [failing], rules: [rules.limit('send_email', 1)] }, [
      reply.toolUse('send_email', { n: 1 }),
      reply.toolUse('send_email', { n: 2 }),
    ]);
    expect(failed.toolCalls.map((c) => c.rule ?? c.outcome)).toEqual(['error', 'limit']);
  });
});
