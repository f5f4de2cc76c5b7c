import { firstDifference, type Difference } from '../json/firstDifference.js';
import type { Message, MessagesRequest, ResponseBlock, UserBlock } from '../messages/types.js';
import { conversationAndCounts } from '../trajectory/conversation.js';
import { comparableParameters, recordedRequestOf } from '../trajectory/requestParameters.js';
import type { MatchLevel } from '../trajectory/matchLevel.js';
import type { Trajectory } from '../trajectory/types.js';
import { toolDigest } from '../trajectory/toolDigest.js';
import type { VerifiedConversation } from './VerifiedConversation.js';

/** A recorded turn's request without its conversation: its header and tools, and how many messages it carried. */
export interface ExpectedTurn {
  header: ComparableHeader;
  /** The request's conversation: this many messages from the start of the whole. */
  messages: number;
}

/**
 * The requests the recording says the runtime made, in comparable form: the whole conversation once, and per turn
 * the header and how much of the conversation it carried (turn k's conversation is a prefix of the whole), so
 * building them costs the conversation's length, not its square.
 */
export function expectedTurns(trajectory: Trajectory): { conversation: Message[]; turns: ExpectedTurn[] } {
  const { conversation, counts: lengths } = conversationAndCounts(trajectory);
  /** The container the latest response named: later requests reuse it where the agent set none. */
  let named: string | undefined;
  // The parameters and tools of an agent with a container, built once and shared by its turns (never changed).
  const headers = new Map<string, ComparableHeader>();
  const turns = trajectory.turns.map((turn, i) => {
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
    return { header, messages: lengths[i]! };
  });
  return { conversation, turns };
}

/** {@link expectedTurns} as whole requests, one per turn, each with its own conversation. */
export function expectedRequests(trajectory: Trajectory): ComparableRequest[] {
  const { conversation, turns } = expectedTurns(trajectory);
  return turns.map(({ header, messages }) => ({ ...header, messages: conversation.slice(0, messages) }));
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
  return { ...actualHeader(request), messages: request.messages };
}

/** A live request's header and tools in comparable form. */
export function actualHeader(request: MessagesRequest): ComparableHeader {
  return {
    ...comparableParameters(recordedRequestOf(request)),
    tools: (request.tools ?? []).map((tool) => ({ name: tool.name, digest: toolDigest(tool) })),
  };
}

/** A request as a replay compares it: the header's parameters (every key present), the tools, the conversation. */
export type ComparableRequest = ComparableHeader & { messages: Message[] };

/** A request's parameters (every key present) and its tools, by name and digest: all of it but the conversation. */
export type ComparableHeader = ReturnType<typeof comparableParameters> & { tools: { name: string; digest: string }[] };

/**
 * The first difference between the recorded and the live request at a match level. With `verified`, the
 * conversation is compared in time proportional to what is new in it (see VerifiedConversation).
 */
export function compareRequests(
  expected: ComparableRequest,
  actual: ComparableRequest,
  level: MatchLevel,
  verified?: VerifiedConversation,
): Difference | undefined {
  if (level !== 'exact' || verified === undefined)
    return firstDifference(project(expected, level), project(actual, level));
  const { messages: expectedMessages, ...expectedRest } = expected;
  const { messages: actualMessages, ...actualRest } = actual;
  return (
    firstDifference(expectedRest, actualRest) ??
    verified.compare(expectedMessages, expectedMessages.length, actualMessages)
  );
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
