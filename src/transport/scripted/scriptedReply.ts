import type { ApiStopReason, ApiUsage, ResponseBlock, ToolUseBlock } from '../../messages/types.js';
import type { StreamDelivery } from './streamDelivery.js';

/** A tool_use block whose id the scripted transport fills in when it serves the reply. */
export type ScriptedToolUse = Omit<ToolUseBlock, 'id'> & { id?: string };

/** A response as a test writes it: content and stop reason; ids, model and usage are filled in. */
export interface ScriptedReply {
  content: (Exclude<ResponseBlock, ToolUseBlock> | ScriptedToolUse)[];
  stopReason: ApiStopReason;
  /** The usage as the API would report it (any counter); by default, estimated input and output tokens. */
  usage?: ApiUsage;
  /** Serve it as a stream through the SDK's parser, delivered (split, broken off) as this says. */
  stream?: StreamDelivery;
}

export interface ToolCallSpec {
  name: string;
  input: unknown;
  id?: string;
}

/** Builders for scripted model responses. */
export const reply = {
  /** The model answers in text and ends its turn. */
  text(text: string, options: { stopReason?: ApiStopReason } = {}): ScriptedReply {
    return { content: [{ type: 'text', text }], stopReason: options.stopReason ?? 'end_turn' };
  },

  /** The model calls one tool, optionally saying something first. */
  toolUse(name: string, input: unknown, options: { id?: string; text?: string } = {}): ScriptedReply {
    return reply.toolUses([{ name, input, ...(options.id === undefined ? {} : { id: options.id }) }], options);
  },

  /** The model calls several tools in one response: they run concurrently. */
  toolUses(calls: ToolCallSpec[], options: { text?: string } = {}): ScriptedReply {
    const content: ScriptedReply['content'] = options.text === undefined ? [] : [{ type: 'text', text: options.text }];
    for (const call of calls)
      content.push({
        type: 'tool_use',
        name: call.name,
        input: call.input,
        ...(call.id === undefined ? {} : { id: call.id }),
      });
    return { content, stopReason: 'tool_use' };
  },

  /** The model ran out of output tokens mid-answer. */
  maxTokens(partialText: string): ScriptedReply {
    return { content: [{ type: 'text', text: partialText }], stopReason: 'max_tokens' };
  },

  /** The model declined to continue. */
  refusal(text = ''): ScriptedReply {
    return { content: text === '' ? [] : [{ type: 'text', text }], stopReason: 'refusal' };
  },

  /**
   * The reply served as the API streams it, through the real SDK's stream parser and the Anthropic transport:
   * split at any bytes, or with a fault on the way (an error event, an early end, a dropped connection), which
   * the run sees as the `TransportError` the live API would give.
   */
  streamed(then: ScriptedReply, delivery: StreamDelivery = {}): ScriptedReply {
    return { ...then, stream: delivery };
  },

  /** The model thought before answering; the signature is kept byte-exact. */
  thinking(thinking: string, signature: string, then: ScriptedReply): ScriptedReply {
    return { ...then, content: [{ type: 'thinking', thinking, signature }, ...then.content] };
  },
};
