import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSse } from '../../src/intercept/exchange.js';
import { canonicalJson } from '../../src/json/canonicalJson.js';
import type { TrajectoryDivergenceError } from '../../src/replay/divergenceError.js';
import { sseText, type SseEvent } from '../../src/transport/scripted/sseEvents.js';
import { ExchangeReplay } from '../../src/intercept/replayExchanges.js';
import { trajectoryOfExchanges } from '../../src/intercept/trajectoryOfExchanges.js';
import { parseTrajectory } from '../../src/trajectory/parseTrajectory.js';
import { serializeTrajectory } from '../../src/trajectory/serialize.js';
import { interleave, jsonish, threaded, trafficOf, turnArb } from './generatedTraffic.js';

/** The trajectory a recording of `exchanges` writes down (what the file holds, before YAML). */
function recorded(exchanges: ReturnType<typeof trafficOf>) {
  return trajectoryOfExchanges({
    name: 'loop',
    agent: 'intercepted',
    exchanges,
    recordedAt: new Date(0),
    client: {},
    normalised: [],
  });
}

describe('an intercepted conversation', () => {
  it('is recorded as a trajectory (read back from its YAML) that answers each request it was made from', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.array(turnArb, { maxLength: 4 }), (prompt, turns) => {
        const exchanges = trafficOf(prompt, turns);
        const trajectory = recorded(exchanges);
        expect(trajectory.turns).toHaveLength(exchanges.length);
        // As a file reads it back.
        const read = parseTrajectory(serializeTrajectory(trajectory), 'loop.yaml');
        expect(read).toEqual(trajectory);
        const context = { file: 'loop.yaml', rerecord: 'again' };
        const replay = new ExchangeReplay(read, context, 'exact', (v) => v);
        for (const exchange of exchanges) {
          expect(replay.answer(exchange.request)).toEqual({ kind: 'json', body: exchange.response });
        }
        expect(replay.finish('')).toBeUndefined();
        const errors = trajectory.turns.flatMap((turn) => turn.results ?? []).filter((r) => r.outcome === 'error');
        expect(errors).toHaveLength(turns.flatMap((turn) => turn.calls).filter((call) => call.isError).length);
      }),
    );
  });
});

describe('an intercepted conversation replayed with its tools changed on a later request', () => {
  /** A tool as a client might send it instead: the same in another key order, or changed. */
  const edit = fc.oneof(
    fc.constant((tool: Record<string, unknown>) => Object.fromEntries(Object.entries(tool).reverse())),
    fc.string().map((description) => (tool: Record<string, unknown>) => ({ ...tool, description })),
    fc.tuple(fc.string({ minLength: 1 }), jsonish).map(([key, value]) => (tool: Record<string, unknown>) => ({
      ...tool,
      input_schema: { ...(tool.input_schema as object), [key]: value },
    })),
  );

  it('is answered while each tool is the same as recorded, in any key order, and refused at a tool changed', () => {
    fc.assert(
      fc.property(fc.array(turnArb, { minLength: 1, maxLength: 3 }), fc.nat(), fc.nat(2), edit, (turns, at, i, to) => {
        const exchanges = trafficOf('Go.', turns);
        const trajectory = recorded(exchanges);
        const replay = new ExchangeReplay(trajectory, { file: 'loop.yaml', rerecord: 'again' }, 'exact', (v) => v);
        // Each request as it comes off the wire: objects of its own. A later one offers tool i edited.
        const changedAt = 1 + (at % (exchanges.length - 1));
        const requests = exchanges.map(({ request }) => structuredClone(request));
        const tools = requests[changedAt]!.tools! as unknown as Record<string, unknown>[];
        const before = tools[i]!;
        tools[i] = to(before);
        const same = canonicalJson(tools[i]) === canonicalJson(before);
        for (const [t, request] of requests.entries()) {
          const answer = replay.answer(request);
          if (t < changedAt || same) {
            expect(answer).toEqual({ kind: 'json', body: exchanges[t]!.response });
            continue;
          }
          expect(answer.kind).toBe('refused');
          expect((answer as { error: TrajectoryDivergenceError }).error).toMatchObject({
            turn: changedAt + 1,
            path: `tools[${i}].digest`,
          });
          break;
        }
      }),
    );
  });
});

describe('several intercepted conversations, interleaved', () => {
  it('come apart into their conversations, and each request, in any interleaving, gets its own response', () => {
    const conversation = fc.record({
      turns: fc.array(turnArb, { maxLength: 3 }),
      threaded: fc.boolean(),
    });
    const picks = fc.array(fc.nat(5), { maxLength: 20 });
    fc.assert(
      fc.property(fc.array(conversation, { minLength: 1, maxLength: 3 }), picks, picks, (specs, sent, asked) => {
        const conversations = specs.map((spec, i) => {
          const traffic = trafficOf(`Conversation ${i}: go.`, spec.turns, `c${i}_`);
          return spec.threaded ? threaded(traffic) : traffic;
        });
        const trajectory = trajectoryOfExchanges({
          name: 'many',
          agent: 'intercepted',
          exchanges: interleave(conversations, sent),
          recordedAt: new Date(0),
          client: {},
          normalised: [],
        });
        const read = parseTrajectory(serializeTrajectory(trajectory), 'many.yaml');
        expect(read).toEqual(trajectory);
        const recorded = [read, ...(read.conversations ?? [])];
        expect(recorded.map((run) => run.turns.length).sort()).toEqual(conversations.map((c) => c.length).sort());
        const replay = new ExchangeReplay(read, { file: 'many.yaml', rerecord: 'again' }, 'exact', (v) => v);
        for (const exchange of interleave(conversations, asked))
          expect(replay.answer(exchange.request)).toEqual({ kind: 'json', body: exchange.response });
        expect(replay.finish('')).toBeUndefined();
      }),
    );
  });
});

describe('server-sent events', () => {
  it('read back as the same events once framed', () => {
    const event = fc
      .record({ type: fc.stringMatching(/^[a-z_]{1,20}$/), body: fc.dictionary(fc.string(), jsonish) })
      .map(({ type, body }) => ({ ...body, type }) as SseEvent);
    fc.assert(
      fc.property(fc.array(event), (events) => {
        expect(parseSse(sseText(events))).toEqual(events);
      }),
    );
  });
});
