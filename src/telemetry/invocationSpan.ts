import type { Context, Span, Tracer } from '@opentelemetry/api';
import { openTelemetry } from './openTelemetry.js';
import { PROVIDER } from './attributeNames.js';
import { setAttributes, usageAttributes, type AttributesOf } from './spanAttributes.js';
import { errorTypeOf } from './toolSpan.js';
import type { InvocationOutcome, UsageTotals } from './tracedFacts.js';

/** What an agent invocation's span is started with: a run, or the resume of a suspended one. */
export interface InvocationStart {
  agent: string;
  model: string;
  /** The run's id (a resume keeps the suspended run's): the conversation's id. */
  runId: string;
  /** For a resume: the pending calls a person approved and denied. */
  resumed?: { approved: string[]; denied: string[] };
  /** For a resume: the run's usage when it stopped, so the invocation counts only its own. */
  usageBefore?: UsageTotals;
}

/** Starts the `invoke_agent {agent}` span (kind INTERNAL: the agent runs in this process). */
export function startInvocationSpan(tracer: Tracer, parent: Context, start: InvocationStart): Span {
  const span = tracer.startSpan(`invoke_agent ${start.agent}`, { kind: openTelemetry().SpanKind.INTERNAL }, parent);
  if (!span.isRecording()) return span;
  const values: AttributesOf = {
    operation: 'invoke_agent',
    provider: PROVIDER,
    agentName: start.agent,
    requestModel: start.model,
    conversationId: start.runId,
  };
  if (start.resumed !== undefined) {
    values.resumed = true;
    values.approvedIds = start.resumed.approved;
    values.deniedIds = start.resumed.denied;
  }
  setAttributes(span, values);
  return span;
}

/**
 * Ends the invocation with what the run came to: the usage this invocation spent (a resume's, not
 * the suspended run's before it), stop reason, taint, suspension.
 */
export function finishInvocationSpan(span: Span, result: InvocationOutcome, usageBefore?: UsageTotals): void {
  const spent = (counter: keyof UsageTotals) => result.usage[counter] - (usageBefore?.[counter] ?? 0);
  const values: AttributesOf = {
    ...usageAttributes({
      input: spent('inputTokens'),
      output: spent('outputTokens'),
      cacheCreation: spent('cacheCreationInputTokens'),
      cacheRead: spent('cacheReadInputTokens'),
      reasoning: spent('thinkingTokens'),
    }),
    stopReason: result.stopReason,
    turns: result.turns,
    tainted: result.tainted,
    taintSource: result.taintSource,
    finalAgent: result.agent,
  };
  if (result.suspension !== undefined) {
    values.suspended = true;
    values.pending = result.suspension.pending.map((call) => call.id);
  }
  setAttributes(span, values);
  span.end();
}

export function failInvocationSpan(span: Span, thrown: unknown): void {
  setAttributes(span, { errorType: errorTypeOf(thrown) });
  span.setStatus({ code: openTelemetry().SpanStatusCode.ERROR });
  span.end();
}
