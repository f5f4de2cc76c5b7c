import type { Context, Span, Tracer } from '@opentelemetry/api';
import { openTelemetry, openTelemetryRegistered } from './openTelemetry.js';
import type { ModelResponse } from '../messages/types.js';
import { inChatSpan, type ChatSpanStart } from './chatSpan.js';
import {
  failInvocationSpan,
  finishInvocationSpan,
  startInvocationSpan,
  type InvocationStart,
} from './invocationSpan.js';
import { startToolSpan, type ToolSpan, type ToolSpanStart } from './toolSpan.js';
import type { InvocationOutcome, UsageTotals } from './tracedFacts.js';
import { legateTracer } from './tracer.js';

/** A recorded invocation: its span and context, and how its children are made. */
interface Live {
  tracer: Tracer;
  span: Span;
  context: Context;
  content: boolean;
  usageBefore: UsageTotals | undefined;
}

/**
 * One agent invocation's tracing: its `invoke_agent` span, and the chat and tool spans started under
 * it with its context passed explicitly (parent links need no context manager). When the invocation
 * is not recorded (no SDK registered, or not sampled), nothing else is built: no spans, no attributes.
 */
export class RunTrace {
  readonly #live: Live | undefined;

  private constructor(live: Live | undefined) {
    this.#live = live;
  }

  /** A run that is not traced (a configuration built before its invocation starts). */
  static readonly none = new RunTrace(undefined);

  /** Starts an invocation under `parent` (default: the active context, so a caller's own span is its parent). */
  static start(start: InvocationStart, options: { content: boolean; parent?: Context | undefined }): RunTrace {
    // No provider registered and no parent given: the invocation's span would not record.
    if (options.parent === undefined && !openTelemetryRegistered()) return RunTrace.none;
    const tracer = legateTracer();
    const parent = options.parent ?? openTelemetry().context.active();
    const span = startInvocationSpan(tracer, parent, start);
    if (!span.isRecording()) {
      span.end();
      return RunTrace.none;
    }
    const context = openTelemetry().trace.setSpan(parent, span);
    return new RunTrace({ tracer, span, context, content: options.content, usageBefore: start.usageBefore });
  }

  /** Whether this invocation's spans are recorded: when not, nothing about them need be built. */
  get recording(): boolean {
    return this.#live !== undefined;
  }

  /** Runs `work` (the invocation) in the invocation's context, ending the span with its result. */
  async around<R extends InvocationOutcome>(work: () => Promise<R>): Promise<R> {
    const live = this.#live;
    if (live === undefined) return work();
    try {
      const result = await openTelemetry().context.with(live.context, work);
      finishInvocationSpan(live.span, result, live.usageBefore);
      return result;
    } catch (thrown) {
      failInvocationSpan(live.span, thrown);
      throw thrown;
    }
  }

  /** One model call, in a `chat` span. */
  chat(start: ChatSpanStart, send: () => Promise<ModelResponse>): Promise<ModelResponse> {
    const live = this.#live;
    if (live === undefined) return send();
    return inChatSpan(live.tracer, live.context, live.content, start, send);
  }

  /** Starts the `execute_tool` span of a call taken up; undefined when the run is not traced. */
  tool(start: ToolSpanStart): ToolSpan | undefined {
    const live = this.#live;
    if (live === undefined) return undefined;
    return startToolSpan(live.tracer, live.context, live.content, start);
  }
}
