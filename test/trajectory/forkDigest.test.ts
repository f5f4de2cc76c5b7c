import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTrajectory, type Trajectory } from '../../src/index.js';
import { forkDigest } from '../../src/trajectory/forkDigest.js';

const PARENT = loadTrajectory('trajectories/zero-trust.yaml');

/** The parent with the text of turn `index`'s first block replaced. */
function withTurnText(index: number, text: string): Trajectory {
  const turns = PARENT.turns.map((turn, i) =>
    i === index
      ? { ...turn, response: { ...turn.response, content: [{ text }, ...turn.response.content.slice(1)] } }
      : turn,
  );
  return { ...PARENT, turns };
}

const TURN = fc.integer({ min: 1, max: PARENT.turns.length });
const NEW_TEXT = fc
  .string({ minLength: 1 })
  .filter((text) => !PARENT.turns.some((t) => 'text' in t.response.content[0]! && t.response.content[0].text === text));

describe("a fork's digest of its parent", () => {
  it('changes exactly when a turn up to the one forked at changes', () => {
    fc.assert(
      fc.property(TURN, fc.integer({ min: 0, max: PARENT.turns.length - 1 }), NEW_TEXT, (turn, index, text) => {
        const changed = forkDigest(withTurnText(index, text), turn) !== forkDigest(PARENT, turn);
        expect(changed).toBe(index < turn);
      }),
    );
  });

  it("changes with the run's header: its model, its request, its tools, its input", () => {
    fc.assert(
      fc.property(TURN, fc.string(), fc.constantFrom('model', 'input', 'system', 'tools'), (turn, text, field) => {
        const edited: Trajectory =
          field === 'system'
            ? { ...PARENT, request: { ...PARENT.request!, system: `${String(PARENT.request!.system)}${text}!` } }
            : field === 'tools'
              ? { ...PARENT, tools: PARENT.tools.slice(1) }
              : { ...PARENT, [field]: `${String(PARENT[field])}${text}!` };
        expect(forkDigest(edited, turn)).not.toBe(forkDigest(PARENT, turn));
      }),
    );
  });

  it('does not change with how the recording is named, when and by what it was made, its clock or its summary', () => {
    fc.assert(
      fc.property(TURN, fc.string(), (turn, text) => {
        const renamed: Trajectory = {
          ...PARENT,
          name: `${PARENT.name}${text}`,
          description: text,
          recordedAt: '2030-01-01T00:00:00.000Z',
          legate: `9.${text}`,
          sdk: text,
          clock: ['2030-01-01T00:00:00.000Z'],
          summary: { ...PARENT.summary, stopReason: 'max_turns' },
          fork: { parent: text, turn: 1, digest: text },
        };
        expect(forkDigest(renamed, turn)).toBe(forkDigest(PARENT, turn));
      }),
    );
  });
});
