import { isBlock } from '../messages/isBlock.js';
import { counterIn } from '../messages/usageCounters.js';
import type { ToolResultBlock } from '../messages/types.js';
import { UsageError } from '../errors/UsageError.js';
import { toRecordedResponse } from '../trajectory/conversation.js';
import { describeTools } from '../trajectory/describeTool.js';
import { TOTALS_COUNTERS } from '../trajectory/format/usage.js';
import { actualRequest, compareRequests, expectedRequests } from '../replay/matchRequest.js';
import { recordedRequestOf } from '../trajectory/requestParameters.js';
import {
  TRAJECTORY_VERSION,
  type RecordedConversation,
  type RecordedResult,
  type RecordedTotals,
  type RecordedTurn,
  type Trajectory,
} from '../trajectory/types.js';
import { legateVersion } from '../version.js';
import type { NormalisationName } from '../trajectory/normalisations.js';
import type { Client } from './clientOf.js';
import type { Exchange } from './exchange.js';
import { groupConversations } from './groupConversations.js';
import { conversationsOf } from '../trajectory/conversationsOf.js';

interface ExchangesRecord {
  name: string;
  agent: string;
  exchanges: readonly Exchange[];
  recordedAt: Date;
  /** The client, as the first request's headers name it. */
  client: Client;
  /** The normalisations applied to the requests (the exchanges come normalised). */
  normalised: readonly NormalisationName[];
}

/**
 * Intercepted Messages API traffic as a trajectory, marked `boundary: http`. The exchanges (in the
 * order their requests were sent) are sorted into conversations (groupConversations); the first is
 * the file's own, the others go under `conversations`. In each, the input is the first request's one
 * message, each response a turn, and the tool_result blocks the next request sent back are that
 * turn's results (`error` where `is_error`). Refused with `intercept_unsupported` unless the file
 * rebuilds every request exactly as it was sent (made whole where it continued a server-held
 * thread), so a recording always replays.
 */
export function trajectoryOfExchanges(record: ExchangesRecord): Trajectory {
  const [first, ...others] = groupConversations(record.exchanges).map(runOf);
  const trajectory: Trajectory = {
    version: TRAJECTORY_VERSION,
    name: record.name,
    recordedAt: record.recordedAt.toISOString(),
    legate: legateVersion(),
    boundary: 'http',
    ...(Object.keys(record.client).length === 0 ? {} : { client: { ...record.client } }),
    ...(record.normalised.length === 0 ? {} : { normalised: [...record.normalised] }),
    agent: record.agent,
    ...first!.run,
    ...(others.length === 0 ? {} : { conversations: others.map(({ run }) => ({ agent: record.agent, ...run })) }),
  };
  conversationsOf(trajectory).forEach((conversation, i) => {
    checkRebuilds(conversation, [first!, ...others][i]!.exchanges, i);
  });
  return trajectory;
}

type Run = Omit<RecordedConversation, 'agent'>;

/** One conversation's exchanges as the fields of a run. */
function runOf(exchanges: readonly Exchange[]): { run: Run; exchanges: readonly Exchange[] } {
  const first = exchanges[0]!.request;
  if (first.messages.length !== 1 || first.messages[0]!.role !== 'user') {
    throw unsupported(
      `a conversation's first request holds ${first.messages.length} messages; a recording starts from one ` +
        'user message',
    );
  }
  const turns = exchanges.map((exchange, i): RecordedTurn => {
    const turn: RecordedTurn = { response: toRecordedResponse(exchange.response) };
    const results = resultsOf(exchange, exchanges[i + 1]);
    if (results.length > 0) turn.results = results;
    if (exchange.events !== undefined) turn.events = exchange.events;
    return turn;
  });
  const last = exchanges[exchanges.length - 1]!.response;
  const run: Run = {
    model: exchanges[0]!.response.model,
    request: recordedRequestOf(first),
    tools: describeTools(first.tools ?? [], []),
    input: first.messages[0]!.content as Trajectory['input'],
    turns,
    summary: { stopReason: last.stop_reason ?? 'end_turn', turns: turns.length, usage: totalsOf(exchanges) },
  };
  return { run, exchanges };
}

/** The results of a response's tool calls: the tool_result blocks of the next request's last message. */
function resultsOf(exchange: Exchange, next: Exchange | undefined): RecordedResult[] {
  if (next === undefined) return [];
  const names = new Map<string, string>(
    exchange.response.content.flatMap((block) => (isBlock(block, 'tool_use') ? [[block.id, block.name] as const] : [])),
  );
  const message = next.request.messages[next.request.messages.length - 1];
  const content = message?.role === 'user' && Array.isArray(message.content) ? message.content : [];
  return (content as ToolResultBlock[])
    .filter((block) => block.type === 'tool_result' && names.has(block.tool_use_id))
    .map((block) => ({
      id: block.tool_use_id,
      tool: names.get(block.tool_use_id)!,
      outcome: block.is_error === true ? 'error' : 'ok',
      content: block.content ?? '',
    }));
}

function totalsOf(exchanges: readonly Exchange[]): RecordedTotals {
  const totals: RecordedTotals = { input: 0, output: 0 };
  for (const [name, counter] of Object.entries(TOTALS_COUNTERS) as [keyof RecordedTotals, keyof typeof counterIn][]) {
    const sum = exchanges.reduce(
      (total, { response }) => total + counterIn(response.usage as unknown as Record<string, unknown>, counter),
      0,
    );
    if (sum !== 0 || name === 'input' || name === 'output') totals[name] = sum;
  }
  return totals;
}

/** Every request, rebuilt from the file, is the one that was sent: else the file would not replay. */
function checkRebuilds(conversation: Trajectory, exchanges: readonly Exchange[], index: number): void {
  const expected = expectedRequests(conversation);
  exchanges.forEach((exchange, i) => {
    const difference = compareRequests(expected[i]!, actualRequest(exchange.request), 'exact');
    if (difference !== undefined) {
      const which = index === 0 ? '' : ` of conversation ${index + 1}`;
      throw unsupported(
        `request ${i + 1}${which} is not the conversation so far ` +
          `(it differs at ${difference.path || 'the request'}): ` +
          'each request of a conversation must send back the previous response whole and the answers to its ' +
          'tool calls in one user message',
      );
    }
  });
}

function unsupported(problem: string): UsageError {
  return new UsageError(
    'intercept_unsupported',
    `The intercepted traffic cannot be recorded as a trajectory yet: ${problem}. Record this client in ` +
      "passthrough mode (see docs/intercept.md, 'What does not work yet').",
  );
}
