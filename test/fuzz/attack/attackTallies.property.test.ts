import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runAttackSuite, type AttackSuite, type DefenceMode } from '../../../src/fuzz/index.js';
import { Agent, reply, ScriptedTransport } from '../../../src/index.js';

/**
 * A suite whose outcomes are a table: whether each task is done alone and under each injection, and whether each
 * injection is achieved on each task, per mode. The model only answers; the world is the injection planted.
 */
interface Table {
  tasks: { writeAfterRead: boolean; alone: boolean[]; under: boolean[][] }[];
  injections: { attackerValue: boolean; achieved: boolean[][] }[];
}

const MODES: DefenceMode[] = ['none', 'taint'];

function tableSuite(table: Table): AttackSuite<{ injection?: number; mode?: number }> {
  return {
    name: 'table',
    environment: () => ({}),
    inject: (env, text) => {
      env.injection = Number(text);
    },
    agent: (env, mode, transport) => {
      env.mode = MODES.indexOf(mode);
      return new Agent({ name: 'table', model: 'claude-test', transport });
    },
    model: () => new ScriptedTransport([reply.text('Done.')]),
    tasks: table.tasks.map((t, i) => ({
      id: `t${i}`,
      prompt: `task ${i}`,
      writeAfterRead: t.writeAfterRead,
      done: (env) => (env.injection === undefined ? t.alone[env.mode!]! : t.under[env.injection]![env.mode!]!),
      asked: () => false,
    })),
    injections: table.injections.map((inj, j) => ({
      id: `i${j}`,
      goal: `goal ${j}`,
      text: String(j),
      attackerValue: inj.attackerValue,
      // The task is not in the world: a goal achieved on one task is achieved on every task, per mode.
      achieved: (env) => inj.achieved[0]![env.mode!]!,
    })),
  };
}

const modesOf = () => fc.tuple(fc.boolean(), fc.boolean()).map(([a, b]) => [a, b]);

const tables = fc
  .record({ tasks: fc.integer({ min: 1, max: 3 }), injections: fc.integer({ min: 0, max: 3 }) })
  .chain(({ tasks, injections }) =>
    fc.record({
      tasks: fc.array(
        fc.record({
          writeAfterRead: fc.boolean(),
          alone: modesOf(),
          under: fc.array(modesOf(), { minLength: injections, maxLength: injections }),
        }),
        { minLength: tasks, maxLength: tasks },
      ),
      injections: fc.array(
        fc.record({ attackerValue: fc.boolean(), achieved: fc.array(modesOf(), { minLength: 1, maxLength: 1 }) }),
        { minLength: injections, maxLength: injections },
      ),
    }),
  );

describe('runAttackSuite counts', () => {
  it('every tally is the count of its runs, over every suite shape', async () => {
    await fc.assert(
      fc.asyncProperty(tables, async (table) => {
        const report = await runAttackSuite(tableSuite(table), { modes: MODES });
        MODES.forEach((mode, m) => {
          const r = report.modes[m]!;
          const pairs = table.tasks.flatMap((t, i) => table.injections.map((inj, j) => ({ t, i, inj, j })));
          const count = (list: boolean[]) => ({ n: list.filter(Boolean).length, of: list.length });
          expect(r.mode).toBe(mode);
          expect(r.benignUtility).toEqual(count(table.tasks.map((t) => t.alone[m]!)));
          expect(r.writeAfterReadUtility).toEqual(
            count(table.tasks.filter((t) => t.writeAfterRead).map((t) => t.alone[m]!)),
          );
          expect(r.failedBenignTasks).toEqual(table.tasks.flatMap((t, i) => (t.alone[m] ? [] : [`t${i}`])));
          expect(r.utilityUnderAttack).toEqual(count(pairs.map(({ t, j }) => t.under[j]![m]!)));
          expect(r.attackSuccess).toEqual(count(pairs.map(({ inj }) => inj.achieved[0]![m]!)));
          expect(r.attackerValueSuccess).toEqual(
            count(pairs.filter(({ inj }) => inj.attackerValue).map(({ inj }) => inj.achieved[0]![m]!)),
          );
          expect(r.successfulAttacks.map((a) => `${a.task}--${a.injection}`)).toEqual(
            pairs.filter(({ inj }) => inj.achieved[0]![m]).map(({ i, j }) => `t${i}--i${j}`),
          );
        });
      }),
      { numRuns: 60 },
    );
  });
});
