// A conversation changed between model calls, for the property tests that hold a transport's per-message caches
// (ScriptedTransport's copies, RecordingTransport's) to copying the whole request on every call.
import fc from 'fast-check';
import type { Message, MessagesRequest } from '../../src/index.js';

export const text = fc.string({ unit: 'binary', maxLength: 12 });
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text }),
  fc.record({ type: fc.constant('tool_use'), id: text, name: text, input: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ type: fc.constant('tool_result'), tool_use_id: text, content: text, is_error: fc.boolean() }),
);
const content = fc.oneof(text, fc.array(block, { minLength: 1, maxLength: 3 }));

/** What happens to the conversation before the next call: mostly a message appended, as the run loop does. */
export const change = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('append' as const), content, role: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pushBlock' as const), at: fc.nat(), block }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replaceBlock' as const), at: fc.nat(), block }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replaceContent' as const), at: fc.nat(), content }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('setRole' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dropLast' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('appendOther' as const),
      content,
      shape: fc.constantFrom('instance' as const, 'toJson' as const, 'extraKey' as const, 'nullPrototype' as const),
    }),
  },
);
type Change = typeof change extends fc.Arbitrary<infer C> ? C : never;

/** Changes the conversation in place, as a caller of send may (the run loop only appends). */
export function apply(messages: Message[], step: Change): void {
  if (step.kind === 'append') {
    messages.push({ role: step.role ? 'user' : 'assistant', content: structuredClone(step.content) } as Message);
    return;
  }
  if (step.kind === 'appendOther') {
    messages.push(otherMessage(step.shape, structuredClone(step.content)));
    return;
  }
  if (step.kind === 'dropLast') {
    messages.pop();
    return;
  }
  const message = messages[step.at % Math.max(1, messages.length)];
  if (message === undefined) return;
  if (step.kind === 'repeat') {
    messages.push(message); // the same object twice in one conversation
    return;
  }
  if (step.kind === 'setRole') message.role = message.role === 'user' ? 'assistant' : 'user';
  else if (step.kind === 'replaceContent') message.content = structuredClone(step.content) as never;
  else if (typeof message.content !== 'string') {
    const blocks = message.content as unknown[];
    if (step.kind === 'pushBlock') blocks.push(structuredClone(step.block));
    else blocks[step.at % blocks.length] = structuredClone(step.block);
  }
}

/**
 * A message made by other code than the run loop: an instance of a class (one whose toJSON writes it otherwise), a
 * key beyond role and content, no prototype.
 */
class SaidElsewhere {
  constructor(
    readonly role: 'user' | 'assistant',
    readonly content: unknown,
  ) {}
}
/** One that writes itself as JSON otherwise than its keys say. */
class SaidBriefly extends SaidElsewhere {
  toJSON(): unknown {
    return { role: this.role, content: '(said elsewhere)' };
  }
}
function otherMessage(shape: 'instance' | 'toJson' | 'extraKey' | 'nullPrototype', content: unknown): Message {
  if (shape === 'instance') return new SaidElsewhere('user', content) as unknown as Message;
  if (shape === 'toJson') return new SaidBriefly('user', content) as unknown as Message;
  if (shape === 'extraKey') return { role: 'user', content, name: 'elsewhere' } as unknown as Message;
  return Object.assign(Object.create(null) as object, { role: 'user', content }) as Message;
}

/** A tool definition as defineTool makes it: one frozen object, the same on every request. */
const frozenTool = Object.freeze({
  name: 'look_up',
  description: 'Looks things up.',
  input_schema: { type: 'object' },
});
const otherTool = Object.freeze({ name: 'note', input_schema: { type: 'object', properties: {} } });
export type Tools = 'none' | 'frozen' | 'mixed';

type System = MessagesRequest['system'];
export const requestOf = (messages: Message[], system: System, tools: Tools = 'frozen'): MessagesRequest => ({
  model: 'claude-test',
  max_tokens: 64,
  ...(system === undefined ? {} : { system }),
  messages: [...messages],
  ...(tools === 'none'
    ? {}
    : {
        tools:
          tools === 'frozen'
            ? [frozenTool, otherTool]
            : [frozenTool, { ...frozenTool, name: 'cached', cache_control: { type: 'ephemeral' as const } }],
      }),
});
