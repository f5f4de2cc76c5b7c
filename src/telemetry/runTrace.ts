import { context as otelContext, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { ModelResponse } from '../messages/types.js';
import type { AgentResult, Usage } from '../runtime/agentResult.js';
import { inChatSpan, type ChatSpanStart } from './chatSpan.js';
import {
  failInvocationSpan,
  finishInvocationSpan,
  startInvocationSpan,
  type InvocationStart,
} from './invocationSpan.js';
import { startToolSpan, type ToolSpan, type ToolSpanStart } from './toolSpan.js';
import { legateTracer } from './tracer.js';

/**
 * One agent invocation's tracing: its `invoke_agent` span, and the chat and tool spans started under
 * it with its context passed explicitly (parent links need no context manager). When the invocation
 * is not recorded (no SDK registered, or not sampled), nothing else is built: no spans, no attributes.
 */
export class RunTrace {
  readonly #tracer: Tracer;
  readonly #span: Span | undefined;
  readonly #context: Context | undefined;
  readonly #content: boolean;
  readonly #usageBefore: Usage | undefined;

  private constructor(tracer: Tracer, span: Span | undefined, parent: Context, content: boolean, usageBefore?: Usage) {
    this.#tracer = tracer;
    this.#usageBefore = usageBefore;
    this.#span = span;
    this.#context = span === undefined ? undefined : trace.setSpan(parent, span);
    this.#content = content;
  }

  /** Starts an invocation under `parent` (default: the active context, so a caller's own span is its parent). */
  static start(start: InvocationStart, options: { content: boolean; parent?: Context | undefined }): RunTrace {
    const tracer = legateTracer();
    const parent = options.parent ?? otelContext.active();
    const span = startInvocationSpan(tracer, parent, start);
    if (!span.isRecording()) {
      span.end();
      return new RunTrace(tracer, undefined, parent, false);
    }
    return new RunTrace(tracer, span, parent, options.content, start.usageBefore);
  }

  /** A run that is not traced (configurations built outside an agent's run). */
  static readonly none = new RunTrace(trace.getTracer('legate-none'), undefined, otelContext.active(), false);

  /** Runs `work` (the invocation) in the invocation's context, ending the span with its result. */
  async around(work: () => Promise<AgentResult>): Promise<AgentResult> {
    const span = this.#span;
    if (span === undefined) return work();
    try {
      const result = await otelContext.with(this.#context!, work);
      finishInvocationSpan(span, result, this.#usageBefore);
      return result;
    } catch (thrown) {
      failInvocationSpan(span, thrown);
      throw thrown;
    }
  }

  /** Whether this invocation's spans are recorded: when not, nothing about them need be built. */
  get recording(): boolean {
    return this.#context !== undefined;
  }

  /** One model call, in a `chat` span. */
  chat(start: ChatSpanStart, send: () => Promise<ModelResponse>): Promise<ModelResponse> {
    if (this.#context === undefined) return send();
    return inChatSpan(this.#tracer, this.#context, this.#content, start, send);
  }

  /** Starts the `execute_tool` span of a call taken up; undefined when the run is not traced. */
  tool(start: ToolSpanStart): ToolSpan | undefined {
    if (this.#context === undefined) return undefined;
    return startToolSpan(this.#tracer, this.#context, this.#content, start);
  }
}
