import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn } from '../../../src/intercept/index.js';
import { expectedRequests } from '../../../src/replay/matchRequest.js';
import { toModelResponse } from '../../../src/trajectory/conversation.js';
import { withConversations } from '../../../src/trajectory/conversationsOf.js';
import { loadTrajectory } from '../../../src/trajectory/trajectoryFile.js';
import type { Trajectory } from '../../../src/trajectory/types.js';

// The guarantee that lets several clients share one stand-in: whatever order their requests arrive in, each client
// gets its own conversation's responses, in order. Committed trajectories (each a client, distinct first messages)
// are served from one file; each client sends its conversation's requests as it would, one after the other.

const FILES = [
  'tool-loop',
  'parallel-tool-calls',
  'refusal',
  'max-tokens',
  'tool-failure',
  'email-limit',
  'invalid-argument-corrected',
  'compensated-booking',
  'rbac-hidden-tool',
  'approval-granted',
];
const recordings = FILES.map((name) => loadTrajectory(`trajectories/${name}.yaml`));

/** A client's run: its conversation, the requests it sends (the recording's), the responses it must get. */
function clientOf(conversation: Trajectory) {
  const requests = expectedRequests(conversation).map(({ messages }) => ({
    model: conversation.model,
    max_tokens: 1024,
    messages,
  }));
  const responses = conversation.turns.map((turn) => {
    const { incompleteToolUse: _cut, ...response } = toModelResponse(turn.response);
    return response;
  });
  return { requests, responses };
}

const standIns: StandIn[] = [];
beforeAll(() => {
  expect(new Set(recordings.map((recording) => JSON.stringify(recording.input))).size).toBe(FILES.length);
});
afterAll(async () => {
  await Promise.all(standIns.map((standIn) => standIn.close()));
});

/** Some of the recordings, in some order, and an interleaving of their clients' requests. */
const run = fc
  .shuffledSubarray(
    recordings.map((_, i) => i),
    { minLength: 1, maxLength: 5 },
  )
  .chain((chosen) => {
    const turns = chosen.flatMap((c, i) => recordings[c]!.turns.map(() => i));
    return fc.record({
      chosen: fc.constant(chosen),
      order: fc.shuffledSubarray(turns, { minLength: turns.length, maxLength: turns.length }),
    });
  });

describe('a stand-in serving several conversations', () => {
  it('gives each client its own conversation, in order, whatever order their requests arrive in', async () => {
    await fc.assert(
      fc.asyncProperty(run, async ({ chosen, order }) => {
        const file = withConversations(chosen.map((c) => recordings[c]!));
        // Closed when the run ends, or (a failing run) after the property.
        const standIn = await startStandIn({ trajectory: file });
        standIns.push(standIn);
        const clients = chosen.map((c) => ({ ...clientOf(recordings[c]!), sent: 0 }));
        // The clients' requests interleaved, each client's in its order: `order` names whose turn is next.
        for (const who of order) {
          const client = clients[who]!;
          const answer = await fetch(`${standIn.url}/v1/messages`, {
            method: 'POST',
            body: JSON.stringify(client.requests[client.sent]),
          });
          expect({ who, status: answer.status, body: await answer.json() }).toEqual({
            who,
            status: 200,
            body: client.responses[client.sent],
          });
          client.sent++;
        }
        await standIn.close();
      }),
      { numRuns: 40 },
    );
  });
});
