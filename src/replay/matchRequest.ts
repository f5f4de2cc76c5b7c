import { firstDifference, type Difference } from '../json/firstDifference.js';
import type { Message, MessagesRequest, ResponseBlock, UserBlock } from '../messages/types.js';
import { conversationBefore, messageCounts } from '../trajectory/conversation.js';
import { comparableParameters, recordedRequestOf } from '../trajectory/requestParameters.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import type { Trajectory } from '../trajectory/types.js';
import { toolDigest } from '../trajectory/toolDigest.js';

/**
 * The requests the recording says the runtime made, one per turn, in comparable form. Built
 * once per replay: turn k's conversation is a prefix of the whole.
 */
export function expectedRequests(trajectory: Trajectory): ComparableRequest[] {
  const conversation = conversationBefore(trajectory, trajectory.turns.length + 1);
  const lengths = messageCounts(trajectory);
  /** The container the latest response named: later requests reuse it where the agent set none. */
  let named: string | undefined;
  // The parameters and tools of an agent with a container, built once and shared by its turns (never changed).
  const headers = new Map<string, Omit<ComparableRequest, 'messages'>>();
  return trajectory.turns.map((turn, i) => {
    // After a handoff, the agent in charge sends its own prompt, model and tools.
    const { request, tools: offered } = agentOfTurn(trajectory, turn.agent);
    const container = request.container ?? named;
    const key = JSON.stringify([turn.agent ?? null, container ?? null]);
    let header = headers.get(key);
    if (header === undefined) {
      header = {
        ...comparableParameters({ ...request, ...(container === undefined ? {} : { container }) }),
        tools: offered.map((tool) => ({ name: tool.name, digest: tool.digest })),
      };
      headers.set(key, header);
    }
    named = containerOf(turn.response) ?? named;
    return { ...header, messages: conversation.slice(0, lengths[i]) };
  });
}

/** The id of the container a recorded response names, if it names one. */
function containerOf(response: object): string | undefined {
  const container = (response as { container?: { id?: unknown } | null }).container;
  return typeof container?.id === 'string' ? container.id : undefined;
}

/** The request parameters and tools of the agent that made a turn. */
export function agentOfTurn(
  trajectory: Trajectory,
  agent: string | undefined,
): { request: Trajectory['request']; tools: Trajectory['tools'] } {
  if (agent === undefined || agent === trajectory.agent)
    return { request: trajectory.request, tools: trajectory.tools };
  const other = trajectory.agents?.[agent];
  // The reader and ReplayTransport refuse a turn by an agent the trajectory does not describe.
  return other!;
}

/** A live request in the same comparable form. */
export function actualRequest(request: MessagesRequest): ComparableRequest {
  return {
    ...comparableParameters(recordedRequestOf(request)),
    tools: (request.tools ?? []).map((tool) => ({ name: tool.name, digest: toolDigest(tool) })),
    messages: request.messages,
  };
}

/** A request as a replay compares it: the header's parameters (every key present), the tools, the conversation. */
export type ComparableRequest = ReturnType<typeof comparableParameters> & {
  tools: { name: string; digest: string }[];
  messages: Message[];
};

/**
 * The first difference between the recorded and the live request at a match level. `verified`
 * remembers the messages already found equal on an earlier turn: each turn's conversation
 * repeats the last one's, and the runtime never changes a message once sent, so a pair of
 * messages compared once need not be walked again (it keeps a replay linear in its length).
 */
export function compareRequests(
  expected: ComparableRequest,
  actual: ComparableRequest,
  level: MatchLevel,
  verified?: WeakMap<object, object>,
): Difference | undefined {
  if (level !== 'exact' || verified === undefined)
    return firstDifference(project(expected, level), project(actual, level));
  const { messages: expectedMessages, ...expectedRest } = expected;
  const { messages: actualMessages, ...actualRest } = actual;
  const headDifference = firstDifference(expectedRest, actualRest);
  if (headDifference !== undefined) return headDifference;
  const length = Math.max(expectedMessages.length, actualMessages.length);
  for (let i = 0; i < length; i++) {
    const e = expectedMessages[i];
    const a = actualMessages[i];
    if (e !== undefined && a !== undefined && verified.get(e) === a) continue;
    const difference = firstDifference(e, a, `messages[${i}]`);
    if (difference !== undefined) return difference;
    if (e !== undefined && a !== undefined) verified.set(e, a);
  }
  return undefined;
}

function project(request: ComparableRequest, level: MatchLevel): unknown {
  if (level === 'exact') return request;
  const toolNames = request.tools.map((tool) => tool.name);
  if (level === 'shape') return { model: request.model, tools: toolNames, messages: request.messages.length };
  return {
    model: request.model,
    tools: toolNames,
    messages: request.messages.map((message) => ({
      role: message.role,
      content:
        typeof message.content === 'string'
          ? 'text'
          : (message.content as (ResponseBlock | UserBlock)[]).map(blockStructure),
    })),
  };
}

function blockStructure(block: ResponseBlock | UserBlock): unknown {
  if (block.type === 'tool_use') return { type: block.type, id: block.id, name: block.name };
  if (block.type === 'tool_result') return { type: block.type, tool_use_id: block.tool_use_id };
  return { type: block.type };
}
