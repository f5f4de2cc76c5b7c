import type { Message, MessagesRequest, ModelResponse } from '../messages/types.js';

/**
 * Conversation content in the GenAI conventions' JSON form (`gen_ai.input.messages`, ...): messages
 * as `{ role, parts }`, each block a part (`text`, `tool_call`, `tool_call_response`, `reasoning`;
 * any other block kept whole under its own type). Only built when a run records content.
 */
type Part = Record<string, unknown> & { type: string };

function partOf(block: unknown): Part {
  const b = block as Record<string, unknown> & { type: string };
  switch (b.type) {
    case 'text':
      return { type: 'text', content: b.text };
    case 'tool_use':
      return { type: 'tool_call', id: b.id, name: b.name, arguments: b.input };
    case 'tool_result':
      return { type: 'tool_call_response', id: b.tool_use_id, response: b.content };
    case 'thinking':
      return { type: 'reasoning', content: b.thinking };
    default:
      return { ...b };
  }
}

function partsOf(content: string | readonly unknown[]): Part[] {
  return typeof content === 'string' ? [{ type: 'text', content }] : content.map(partOf);
}

export function inputMessagesJson(messages: readonly Message[]): string {
  return JSON.stringify(messages.map((message) => ({ role: message.role, parts: partsOf(message.content) })));
}

export function systemInstructionsJson(system: NonNullable<MessagesRequest['system']>): string {
  return JSON.stringify(partsOf(system));
}

export function outputMessagesJson(response: ModelResponse): string {
  return JSON.stringify([
    { role: 'assistant', parts: partsOf(response.content), finish_reason: response.stop_reason ?? '' },
  ]);
}

/** A tool's arguments or result as an attribute value: text as it is, anything else as JSON. */
export function contentValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}
