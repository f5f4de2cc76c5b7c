import type { Message } from '../../../src/messages/types.js';
import { type Provenance, type ProvenanceTool, provenanceOf } from '../../../src/guard/provenance/provenance.js';
import { untracedArgument, type Untraced } from '../../../src/guard/provenance/traceArguments.js';

/** Builders of conversations for the provenance tests. */

export const tools: Record<string, ProvenanceTool> = {
  read_file: { untrusted: true, privileged: false, outsideAuthored: undefined },
  list_transactions: { untrusted: true, privileged: false, outsideAuthored: ['[].subject'] },
  get_balance: { untrusted: false, privileged: false, outsideAuthored: undefined },
  lookup_contact: { untrusted: false, privileged: false, outsideAuthored: undefined },
};
export const toolOf = (name: string) => (Object.hasOwn(tools, name) ? tools[name] : undefined);

export const user = (text: string): Message => ({ role: 'user', content: text });
export const calls = (...uses: { id: string; name: string; input?: unknown }[]): Message => ({
  role: 'assistant',
  content: uses.map(({ id, name, input }) => ({ type: 'tool_use', id, name, input: input ?? {} })),
});
export const results = (...blocks: { id: string; content: unknown; isError?: boolean }[]): Message => ({
  role: 'user',
  content: blocks.map(({ id, content, isError }) => ({
    type: 'tool_result',
    tool_use_id: id,
    content: content as string,
    ...(isError === undefined ? {} : { is_error: isError }),
  })),
});

/** A conversation in which `name` was called with `input` and answered `content`. */
export function called(name: string, content: unknown, input: unknown = {}, isError?: boolean): Message[] {
  return [
    calls({ id: `toolu_${name}`, name, input }),
    results({ id: `toolu_${name}`, content, ...(isError === undefined ? {} : { isError }) }),
  ];
}

export function provenance(messages: Message[], system?: string): Provenance {
  return provenanceOf({ system, messages }, toolOf);
}

/** What tracing `value` as the argument `recipient` finds in the conversation. */
export function trace(value: unknown, messages: Message[], system?: string): Untraced | undefined {
  return untracedArgument({ recipient: value }, ['recipient'], provenance(messages, system));
}
