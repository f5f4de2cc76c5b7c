import type { Context, Tracer } from '@opentelemetry/api';
import { openTelemetry } from './openTelemetry.js';
import type { MessagesRequest, ModelResponse } from '../messages/types.js';
import { PROVIDER } from './attributeNames.js';
import { inputMessagesJson, outputMessagesJson, systemInstructionsJson } from './messageContent.js';
import { attributes, setAttributes, tokensOfResponse, usageAttributes, type AttributesOf } from './spanAttributes.js';
import { errorTypeOf } from './toolSpan.js';

/** Where a model call was made from. */
export interface ChatSpanStart {
  agent: string;
  turn: number;
  request: MessagesRequest;
}

/**
 * A `chat {model}` span (kind CLIENT) around one model call: the request's parameters at its start,
 * the response's id, model, finish reason and usage at its end. `send` runs in the span's context,
 * so an instrumented HTTP client's spans nest under it.
 */
export async function inChatSpan(
  tracer: Tracer,
  parent: Context,
  content: boolean,
  start: ChatSpanStart,
  send: () => Promise<ModelResponse>,
): Promise<ModelResponse> {
  const { request } = start;
  const values: AttributesOf = {
    operation: 'chat',
    provider: PROVIDER,
    requestModel: request.model,
    maxTokens: request.max_tokens,
    temperature: request.temperature,
    stopSequences: request.stop_sequences,
    agent: start.agent,
    turn: start.turn,
  };
  if (content) {
    if (request.system !== undefined) values.systemInstructions = systemInstructionsJson(request.system);
    values.inputMessages = inputMessagesJson(request.messages);
  }
  // Given at creation, where a sampler can read them (as the conventions ask).
  const span = tracer.startSpan(
    `chat ${request.model}`,
    { kind: openTelemetry().SpanKind.CLIENT, attributes: attributes(values) },
    parent,
  );
  try {
    const { context, trace } = openTelemetry();
    const response = await context.with(trace.setSpan(parent, span), send);
    setAttributes(span, {
      responseModel: response.model,
      responseId: response.id === '' ? undefined : response.id,
      finishReasons: response.stop_reason === null ? undefined : [response.stop_reason],
      ...usageAttributes(tokensOfResponse(response.usage)),
      ...(content ? { outputMessages: outputMessagesJson(response) } : {}),
    });
    return response;
  } catch (thrown) {
    // The type only: an error's message can quote the conversation, which is content.
    setAttributes(span, { errorType: errorTypeOf(thrown) });
    span.setStatus({ code: openTelemetry().SpanStatusCode.ERROR });
    throw thrown;
  } finally {
    span.end();
  }
}
