import { firstDifference } from '../../json/firstDifference.js';
import type { Message, MessagesRequest } from '../../messages/types.js';
import { expectedRequests } from '../../replay/matchRequest.js';
import { toModelResponse } from '../../trajectory/conversation.js';
import { conversationsOf } from '../../trajectory/conversationsOf.js';
import type { Trajectory } from '../../trajectory/types.js';
import type { SseEvent } from '../../transport/scripted/sseEvents.js';
import type { Exchange } from '../exchange.js';
import { continues } from '../groupConversations.js';
import { wholeRequest, type Answered } from '../wholeRequest.js';
import { type Answers, refusal, type StandInAnswer } from './standInAnswer.js';

/** One recorded conversation being served: how many of its turns were, and the last request and answer. */
interface Served {
  conversation: Trajectory;
  /** The messages of the conversation's first request. */
  first: Message[] | undefined;
  number: number;
  served: number;
  last?: Exchange;
}

/**
 * A recording's responses, served in order within each of its conversations. Conversations are told apart as a
 * recording tells them apart (groupConversations): a request (made whole where it continues a server-held thread)
 * that sends back a conversation's last request and the response it got gets that conversation's next turn; any
 * other request starts the next conversation not yet started: the first in file order whose first request sent
 * these messages, else the first in file order. What is recorded is served as recorded (ids, model, usage, and
 * the events of a streamed turn); the request is not compared with the recording: that is replay's work.
 */
export function recordingAnswers(trajectory: Trajectory, source: string): Answers {
  const all = conversationsOf(trajectory);
  const conversations: Served[] = all.map((conversation, i) => ({
    conversation,
    first: expectedRequests(conversation)[0]?.messages,
    number: i + 1,
    served: 0,
  }));
  const answered = new Map<string, Answered>();
  const named = (served: Served) =>
    all.length === 1 ? source : `conversation ${served.number} of ${all.length} in ${source}`;

  function serve(served: Served, request: MessagesRequest): StandInAnswer {
    const turn = served.conversation.turns[served.served];
    if (turn === undefined) {
      const turns = served.conversation.turns.length;
      return refusal(
        `The stand-in has no response left for this request: it continues ${named(served)}, whose ` +
          `${turns} recorded turn${turns === 1 ? ' was' : 's were'} all served. Record the conversation again, ` +
          'or end it sooner.',
      );
    }
    served.served++;
    const recorded = toModelResponse(turn.response);
    // What a client sends back is the response as it got it: a tool input cut off is not sent back.
    const { incompleteToolUse: _cut, ...response } = recorded;
    served.last = { request, response };
    answered.set(response.id, served.last);
    return {
      ok: true,
      response: recorded,
      ...(turn.events === undefined ? {} : { events: turn.events as SseEvent[] }),
    };
  }

  return {
    async answer(sent) {
      const whole = wholeRequest(sent, (id) => answered.get(id));
      if (!whole.ok)
        return refusal(
          `The stand-in cannot answer this request: it continues the server-held thread of response ` +
            `${whole.previousMessageId}, which the stand-in did not serve (it serves ${source}).`,
        );
      const request = whole.request;
      const continued = conversations.find((served) => served.last !== undefined && continues(served.last, request));
      if (continued !== undefined) return serve(continued, request);
      const fresh = conversations.filter((served) => served.last === undefined);
      const same = fresh.find(
        (served) => served.first !== undefined && firstDifference(served.first, request.messages) === undefined,
      );
      const next = same ?? fresh[0];
      if (next !== undefined) return serve(next, request);
      return refusal(
        `The stand-in has no response for this request (${messageCount(request)}): it continues none of the ` +
          `conversations it served, and ${source} has no conversation left to start (it has ${all.length}). ` +
          'A request continues a conversation when it sends back its last request and the response it got; ' +
          'record the client again if it now sends other requests.',
      );
    },
  };
}

function messageCount(request: MessagesRequest): string {
  const count = request.messages.length;
  return `${count} message${count === 1 ? '' : 's'}`;
}
