import { INVALID_SPAN_CONTEXT, trace, type SpanOptions, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ScriptedTransport, defineTool, reply } from '../../src/index.js';
import { openTelemetryRegistered } from '../../src/telemetry/openTelemetry.js';

/**
 * A provider whose tracer makes the spans an application without an SDK gets (non-recording), and
 * counts them: what legate builds when nobody records its spans.
 */
const started: string[] = [];
const counting: TracerProvider = {
  getTracer: (): Tracer => {
    const tracer: Tracer = {
      startSpan: (name: string, _options?: SpanOptions) => {
        started.push(name);
        return trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
      },
      startActiveSpan: (() => {
        throw new Error('legate starts spans with explicit parents');
      }) as never,
    };
    return tracer;
  },
};
beforeAll(() => trace.setGlobalTracerProvider(counting));
afterAll(() => trace.disable());

describe('a run nobody records', () => {
  it('starts one span, its invocation, and builds nothing more: no chat or tool spans', async () => {
    const echo = defineTool({ name: 'echo', description: 'Echoes.', input: { type: 'object' }, run: () => 'ok' });
    const agent = new Agent({
      name: 'quiet',
      model: 'claude-haiku-5-5',
      tools: [echo],
      transport: new ScriptedTransport([reply.toolUse('echo', {}), reply.toolUse('echo', {}), reply.text('Done.')]),
    });
    const result = await agent.run('Echo twice.');
    expect(result.toolCalls.map((call) => call.outcome)).toEqual(['ok', 'ok']);
    expect(started).toEqual(['invoke_agent quiet']);
  });
});

describe('whether anything is registered with OpenTelemetry', () => {
  it('is seen on the global the API keeps, while a provider is registered (the run above started its span)', () => {
    expect(openTelemetryRegistered()).toBe(true);
  });
});
