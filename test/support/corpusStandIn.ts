import { canonicalJson } from '../../src/json/canonicalJson.js';
import type { MessagesRequest, ModelResponse, ResponseBlock, ToolUseBlock } from '../../src/messages/types.js';
import { startStandIn, type StandIn } from '../../src/intercept/index.js';
import {
  actualRequest,
  compareRequests,
  expectedRequests,
  type ComparableRequest,
} from '../../src/replay/matchRequest.js';
import { toModelResponse } from '../../src/trajectory/conversation.js';
import { loadTrajectory } from '../../src/trajectory/trajectoryFile.js';
import type { RecordedTurn, Trajectory } from '../../src/trajectory/types.js';

/** A recorded turn the stand-in is about to serve: the file, which conversation (a sub-agent's: its path), the turn. */
export interface ServedTurn {
  file: string;
  /** `''` for the file's own conversation; a sub-agent's: the tool_use ids that led to it, `toolu_s1_1/`. */
  conversation: string;
  /** 1-based. */
  turn: number;
  request: MessagesRequest;
  response: ModelResponse;
}

/** One conversation of a file: its turns, and the request the recording says each turn was asked with. */
interface Conversation {
  file: string;
  conversation: string;
  turns: readonly RecordedTurn[];
  requests: ComparableRequest[];
}

/** Most requests a corpus stand-in answers (its script's length). */
const MAX_REQUESTS = 2000;

/**
 * A stand-in (startStandIn, over HTTP) that answers as trajectory files were recorded, whatever order their
 * conversations arrive in: a request gets the response recorded for its turn (how many assistant messages it sends
 * back) of the conversation it belongs to: the one it matches exactly, else among those that start with its first
 * message, the one asked with its system prompt that has the most messages in common with it (where several are
 * as close, they must have been answered alike). Sub-agents' conversations included. `answer` may serve another
 * response in place of a recorded one: the model answering differently (the conversation then goes on from the
 * recording's next turn, as far as it has turns).
 */
export async function corpusStandIn(
  files: readonly string[],
  answer: (served: ServedTurn) => ModelResponse = (served) => served.response,
): Promise<StandIn> {
  const byFirstMessage = new Map<string, Conversation[]>();
  const add = (file: string, conversation: string, run: Trajectory) => {
    const requests = expectedRequests(run);
    if (requests.length === 0) return;
    const key = canonicalJson(requests[0]!.messages[0]);
    byFirstMessage.set(key, [...(byFirstMessage.get(key) ?? []), { file, conversation, turns: run.turns, requests }]);
    for (const turn of run.turns)
      for (const result of turn.results ?? [])
        if (result.subRun !== undefined) add(file, `${conversation}${result.id}/`, { ...run, ...result.subRun });
  };
  for (const file of files) add(file, '', loadTrajectory(file));
  const step = (request: MessagesRequest): ModelResponse => {
    const candidates = byFirstMessage.get(canonicalJson(request.messages[0])) ?? [];
    const turn = request.messages.filter((message) => message.role === 'assistant').length + 1;
    const actual = actualRequest(request);
    // A conversation asked exactly this first; then one asked with this system prompt; then the longest run of
    // messages in common.
    const score = (c: Conversation) => {
      const expected = c.requests[turn - 1];
      if (expected === undefined) return -1;
      if (compareRequests(expected, actual, 'exact') === undefined) return Number.MAX_SAFE_INTEGER;
      const system = canonicalJson(expected.system) === canonicalJson(actual.system) ? 1000 : 0;
      const same = expected.messages.findIndex((m, i) => canonicalJson(m) !== canonicalJson(request.messages[i]));
      return system + (same === -1 ? expected.messages.length : same);
    };
    const best = Math.max(-1, ...candidates.map(score));
    const found = candidates.filter((c) => score(c) === best);
    // Conversations asked alike (two agents of one prompt) are told apart where their answers differ.
    const answers = new Set(found.map((c) => canonicalJson(c.turns[turn - 1]?.response)));
    if (best < 0 || answers.size !== 1)
      throw new Error(
        `the stand-in has ${found.length} recorded conversations for turn ${turn} of a conversation that starts ` +
          `with ${canonicalJson(request.messages[0]).slice(0, 200)}`,
      );
    const { file, conversation, turns } = found[0]!;
    return answer({ file, conversation, turn, request, response: toModelResponse(turns[turn - 1]!.response) });
  };
  return startStandIn({ script: Array.from({ length: MAX_REQUESTS }, () => step) });
}

/** The tool_use blocks of a response changed by `change`; the rest as it was. */
function withToolUses(response: ModelResponse, change: (block: ToolUseBlock) => ResponseBlock): ModelResponse {
  return {
    ...response,
    content: response.content.map((block) => (block.type === 'tool_use' ? change(block as ToolUseBlock) : block)),
  };
}

/**
 * An upgraded model, for the shipped corpus: it answers as the corpus was recorded, but in provenance-traced.yaml it
 * pays the $120 to the account the fetched page names (so the guard now blocks that call), and in
 * parallel-tool-calls.yaml it takes a square root where it divided (another tool).
 */
export function upgradedModel(served: ServedTurn): ModelResponse {
  const { file, conversation, turn, response } = served;
  if (file.endsWith('/provenance-traced.yaml') && conversation === '' && turn === 3)
    return withToolUses(response, (use) => ({ ...use, input: { amount: 120, to: '99-1234-5678' } }));
  if (file.endsWith('/parallel-tool-calls.yaml') && turn === 1)
    return withToolUses(response, (use) =>
      use.name === 'divide' ? { ...use, name: 'square_root', input: { value: 1764 } } : use,
    );
  return response;
}
