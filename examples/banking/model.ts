import { type MessagesRequest, reply, type ScriptedReply, ScriptedTransport } from '../../src/index.js';
import { Conversation } from './model/conversation.js';
import { plantedCalls, withoutInstructions } from './model/instructions.js';
import { taskCalls } from './model/taskPlans.js';

/**
 * The scripted model of the banking suite: a deterministic policy over the conversation that behaves like a compliant
 * model. It recognises the user's request from the first message, reads what it needs, takes the values it writes
 * from what it read, and makes the write. An instruction it reads in a tool result is obeyed first (an injection
 * works on it), then the user's request goes on. A call it made is never made again, whether it ran or was refused;
 * when nothing is left to call, it answers in text.
 */
export function bankingModel(): ScriptedTransport {
  return new ScriptedTransport((request) => nextReply(request));
}

function nextReply(request: MessagesRequest): ScriptedReply {
  const c = new Conversation(request, withoutInstructions);
  const next = [...plantedCalls(c), ...taskCalls(c)].find((wanted) => !c.attempted(wanted));
  if (next === undefined) return reply.text(c.calls === 0 ? 'I cannot help with that request.' : 'Done.');
  // Ids from the conversation, not the transport's count: unique across a suspension and its resume.
  const id = `toolu_${String(c.calls + 1).padStart(2, '0')}`;
  return { content: [{ type: 'tool_use', id, name: next.name, input: next.input }], stopReason: 'tool_use' };
}
