import type { Context, Span, Tracer } from '@opentelemetry/api';
import { openTelemetry } from './openTelemetry.js';
import type { ToolUseBlock } from '../messages/types.js';
import { contentValue } from './messageContent.js';
import { attributes, setAttributes, type AttributesOf } from './spanAttributes.js';
import type { TracedCall, TracedDecision } from './tracedFacts.js';

/** What a tool call's span is started with: the call, and the decision made before anything ran. */
export interface ToolSpanStart {
  agent: string;
  turn: number;
  block: ToolUseBlock;
  decision: TracedDecision;
  description?: string | undefined;
  /** The agent behind an `asTool` tool. */
  subAgent?: string | undefined;
  /** A call a person approved (a resume). */
  approved?: boolean;
}

/** The span context each tool call runs in, by the ToolContext it was given: a sub-agent run in it finds its parent. */
const toolContexts = new WeakMap<object, Context>();

/** The span context a tool's `run` was called in (its execute_tool span), for a sub-agent started inside it. */
export function spanContextOfTool(toolContext: object): Context | undefined {
  return toolContexts.get(toolContext);
}

/** The `execute_tool {tool}` span of one call: the decision at its start, the outcome at its end. */
export class ToolSpan {
  readonly context: Context;

  constructor(
    private readonly span: Span,
    parent: Context,
    private readonly content: boolean,
    private readonly agent: string,
  ) {
    this.context = openTelemetry().trace.setSpan(parent, span);
  }

  /** Runs `fn` (the tool's `run`) in this span's context; `toolContext` is what the tool was given. */
  runIn<T>(toolContext: object, fn: () => T): T {
    toolContexts.set(toolContext, this.context);
    return openTelemetry().context.with(this.context, fn);
  }

  /** The call's result was served from a recording instead of running the tool. */
  served(): void {
    setAttributes(this.span, { served: true });
  }

  /** Ends the span with the call's record, or as a call left waiting for approval. */
  finish(call: TracedCall | undefined): void {
    if (call !== undefined) {
      const values: AttributesOf = { outcome: call.outcome };
      if (call.rule !== undefined) values.rule = call.rule;
      if (call.source !== undefined) values.source = call.source;
      if (call.handoff !== undefined) {
        values.handoffFrom = this.agent;
        values.handoffTo = call.handoff.to;
      }
      if (this.content) values.toolResult = contentValue(call.output);
      const error = call.error;
      if (call.outcome === 'error' && error !== undefined) {
        values.errorType = error.error === 'tool_failed' ? error.errorClass : error.error;
        this.span.setStatus({ code: openTelemetry().SpanStatusCode.ERROR });
      }
      setAttributes(this.span, values);
    }
    this.span.end();
  }

  /** Ends the span when the call settles: answered, left waiting for approval, or stopping the run. */
  follow(outcome: Promise<{ call: TracedCall } | { pending: unknown }>): void {
    outcome.then(
      (done) => this.finish('call' in done ? done.call : undefined),
      (thrown: unknown) => this.fail(thrown),
    );
  }

  /** Ends the span for a call that stopped the run (cancelled, or an error that aborts the run). */
  fail(thrown: unknown): void {
    setAttributes(this.span, { errorType: errorTypeOf(thrown) });
    this.span.setStatus({ code: openTelemetry().SpanStatusCode.ERROR });
    this.span.end();
  }
}

export function startToolSpan(tracer: Tracer, parent: Context, content: boolean, start: ToolSpanStart): ToolSpan {
  const { block, decision } = start;
  const values: AttributesOf = {
    operation: 'execute_tool',
    toolName: block.name,
    toolCallId: block.id,
    toolType: 'function',
    toolDescription: start.description,
    agent: start.agent,
    turn: start.turn,
    decision: decision.outcome,
    rule: decision.outcome === 'blocked' ? decision.rule : undefined,
    source: decision.outcome === 'blocked' ? decision.source : undefined,
    invalidCode: decision.outcome === 'invalid' ? decision.code : undefined,
    approved: start.approved,
    subAgent: start.subAgent,
  };
  if (content) values.toolArguments = contentValue(block.input);
  const span = tracer.startSpan(
    `execute_tool ${block.name}`,
    { kind: openTelemetry().SpanKind.INTERNAL, attributes: attributes(values) },
    parent,
  );
  return new ToolSpan(span, parent, content, start.agent);
}

/** The class of what was thrown, as `error.type` names it: a legate error's code, else its class. */
export function errorTypeOf(thrown: unknown): string {
  if (typeof thrown === 'object' && thrown !== null) {
    const code = (thrown as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const name = thrown.constructor?.name;
    if (typeof name === 'string' && name !== '' && name !== 'Object') return name;
  }
  return '_OTHER';
}
