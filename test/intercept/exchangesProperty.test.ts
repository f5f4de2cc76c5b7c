import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSse } from '../../src/intercept/exchange.js';
import { sseText, type SseEvent } from '../../src/transport/scripted/sseEvents.js';
import { ExchangeReplay } from '../../src/intercept/replayExchanges.js';
import { trajectoryOfExchanges } from '../../src/intercept/trajectoryOfExchanges.js';
import { parseTrajectory } from '../../src/trajectory/parseTrajectory.js';
import { serializeTrajectory } from '../../src/trajectory/serialize.js';
import { interleave, jsonish, threaded, trafficOf, turnArb } from './generatedTraffic.js';

describe('an intercepted conversation', () => {
  it('is recorded as a trajectory (read back from its YAML) that answers each request it was made from', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.array(turnArb, { maxLength: 4 }), (prompt, turns) => {
        const exchanges = trafficOf(prompt, turns);
        const trajectory = trajectoryOfExchanges({
          name: 'loop',
          agent: 'intercepted',
          exchanges,
          recordedAt: new Date(0),
          client: {},
          normalised: [],
        });
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
