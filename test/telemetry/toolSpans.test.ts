import { SpanStatusCode, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply, toolError, type Transport } from '../../src/index.js';
import { useSpanRecorder } from '../support/spanRecorder.js';

// With the async-hooks context manager, as an application that traces its own code registers one.
const { spans } = useSpanRecorder({ contextManager: true });

class LedgerUnavailable extends Error {}

const input = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } as const;
const userTracer = () => trace.getTracer('my-app');

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a number up.',
  input,
  run: async ({ n }) => {
    // The application's own span, started from the active context: it nests under execute_tool.
    await userTracer().startActiveSpan('my-app lookup', async (span) => {
      await Promise.resolve();
      span.end();
    });
    return `found ${n}`;
  },
});
const broken = defineTool({
  name: 'broken',
  description: 'Fails.',
  input,
  run: () => {
    throw new LedgerUnavailable('the ledger at 10.0.0.7 is down');
  },
});
const refusing = defineTool({ name: 'refusing', description: 'Refuses.', input, run: () => toolError('no') });

function agentWith(script: ConstructorParameters<typeof ScriptedTransport>[0]): Agent {
  return new Agent({
    name: 'clerk',
    model: 'claude-haiku-5-5',
    tools: [lookup, broken, refusing],
    transport: new ScriptedTransport(script),
  });
}

describe('execute_tool spans', () => {
  it("a tool's own spans nest under its execute_tool span, and the model call's under chat", async () => {
    const scripted = new ScriptedTransport([reply.toolUse('lookup', { n: 7 }), reply.text('Done.')]);
    const transport: Transport = {
      send: (request, options) => {
        userTracer().startSpan('my-app http').end(); // an instrumented HTTP client's span
        return scripted.send(request, options);
      },
    };
    await new Agent({ name: 'clerk', model: 'claude-haiku-5-5', tools: [lookup], transport }).run('Look 7 up.');
    const find = (name: string) => spans().find((span) => span.name === name)!;
    const http = spans().filter((span) => span.name === 'my-app http');
    const chats = spans().filter((span) => span.name === 'chat claude-haiku-5-5');
    expect(http.map((span) => span.parentSpanContext?.spanId)).toEqual(chats.map((span) => span.spanContext().spanId));
    const own = find('my-app lookup');
    const tool = find('execute_tool lookup');
    expect(own.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(tool.parentSpanContext?.spanId).toBe(find('invoke_agent clerk').spanContext().spanId);
    expect(own.spanContext().traceId).toBe(tool.spanContext().traceId);
  });

  it('a tool that threw sets status ERROR and error.type to its class, never its message', async () => {
    await agentWith([reply.toolUse('broken', { n: 1 }), reply.text('It failed.')]).run('Try it.');
    const span = spans().find((s) => s.name === 'execute_tool broken')!;
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes).toMatchObject({ 'error.type': 'LedgerUnavailable', 'legate.outcome': 'error' });
    expect(JSON.stringify([span.attributes, span.status, span.events])).not.toContain('10.0.0.7');
  });

  it('a tool that returned an error result sets status ERROR and error.type tool_error', async () => {
    await agentWith([reply.toolUse('refusing', { n: 1 }), reply.text('Refused.')]).run('Try it.');
    const span = spans().find((s) => s.name === 'execute_tool refusing')!;
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('tool_error');
  });

  it('a call the binder refused, or of an unknown tool, carries the decision and its code', async () => {
    const script = [
      reply.toolUses([
        { name: 'lookup', input: { n: 'seven' } },
        { name: 'nowhere', input: {} },
      ]),
      reply.text('Sorry.'),
    ];
    await agentWith(script).run('Look seven up.');
    const tool = (name: string) => spans().find((s) => s.name === `execute_tool ${name}`)!.attributes;
    expect(tool('lookup')).toMatchObject({ 'legate.decision': 'invalid', 'legate.outcome': 'invalid' });
    expect(tool('lookup')['legate.invalid.code']).toEqual(expect.any(String));
    expect(tool('nowhere')).toMatchObject({ 'legate.decision': 'invalid', 'legate.invalid.code': 'unknown_tool' });
  });

  it('a model call that failed sets status ERROR on its chat span and on the invocation', async () => {
    const error = await agentWith([])
      .run('Hello.')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const chat = spans().find((s) => s.name === 'chat claude-haiku-5-5')!;
    const run = spans().find((s) => s.name === 'invoke_agent clerk')!;
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat.attributes['error.type']).toBe('script_exhausted');
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes['error.type']).toBe('script_exhausted');
  });

  it("an agent.run inside the application's own span is its child; a stream is an invocation too", async () => {
    await userTracer().startActiveSpan('my-app request', async (span) => {
      await agentWith([reply.text('Hello.')]).run('Hi.');
      span.end();
    });
    const streamed = agentWith([reply.text('Hello again.')]).stream('Hi again.');
    for await (const _event of streamed);
    const find = (name: string) => spans().filter((s) => s.name === name);
    const [request] = find('my-app request');
    const runs = find('invoke_agent clerk');
    expect(runs.map((run) => run.parentSpanContext?.spanId)).toEqual([request!.spanContext().spanId, undefined]);
    expect(runs[1]!.attributes['legate.stop_reason']).toBe('end_turn');
  });
});
