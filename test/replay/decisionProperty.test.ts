import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ScriptedTransport,
  TrajectoryDivergenceError,
  defineTool,
  loadTrajectory,
  reply,
  rules,
  runTrajectory,
  type MatchLevel,
  type Rule,
  type Transport,
} from '../../src/index.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

const TOOLS = ['t0', 't1', 't2', 't3'] as const;

/** One version of an agent's safety code: each tool's flags, and its rules. */
interface Code {
  flags: { untrusted: boolean; privileged: boolean }[];
  rules: Rule[];
}

const tool = fc.constantFrom(...TOOLS);
const rule: fc.Arbitrary<Rule> = fc.oneof(
  fc.record({ tool, maxCalls: fc.integer({ min: 1, max: 2 }) }).map((r) => rules.limit(r.tool, r.maxCalls)),
  fc
    .tuple(tool, tool)
    .filter(([a, b]) => a !== b)
    .map(([a, b]) => rules.require(a, b)),
  tool.map((t) => rules.terminal(t)),
);
const code: fc.Arbitrary<Code> = fc.record({
  flags: fc.array(fc.record({ untrusted: fc.boolean(), privileged: fc.boolean() }), {
    minLength: TOOLS.length,
    maxLength: TOOLS.length,
  }),
  rules: fc.array(rule, { maxLength: 3 }),
});
/** What the model asks for: turns of one or two calls, then an answer. */
const script = fc.array(fc.array(tool, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 4 });

function agentOf(version: Code, ran: string[]) {
  return (transport: Transport) =>
    new Agent({
      name: 'worker',
      model: 'claude-haiku-5-5',
      transport,
      tools: TOOLS.map((name, i) =>
        defineTool({
          name,
          description: `Tool ${name}.`,
          input: { type: 'object', properties: {} },
          ...version.flags[i]!,
          run: (_args, ctx) => {
            ran.push(ctx.toolUseId);
            return `${name} ran`;
          },
        }),
      ),
      rules: version.rules,
      maxTurns: 10,
    });
}

describe('a replay against changed safety code', () => {
  it('never runs a call the recording did not run; passes only when every decision is the recorded one', async () => {
    await fc.assert(
      fc.asyncProperty(
        code,
        code,
        script,
        fc.constantFrom<MatchLevel>('exact', 'structure', 'shape'),
        async (recorded, today, turns, match) => {
          const file = join(tempDir(), 'run.yaml');
          const replies = [
            ...turns.map((names) => reply.toolUses(names.map((name) => ({ name, input: {} })))),
            reply.text('Done.'),
          ];
          await runTrajectory({
            file,
            agent: agentOf(recorded, []),
            input: 'Go.',
            mode: 'record',
            transport: () => new ScriptedTransport(replies),
            report: false,
          });
          const results = loadTrajectory(file).turns.flatMap((turn) => turn.results ?? []);
          const ranWhenRecorded = new Set(
            results.filter((r) => r.outcome === 'ok' || r.outcome === 'error').map((r) => r.id),
          );
          const ran: string[] = [];
          const replayed = await runTrajectory({
            file,
            agent: agentOf(today, ran),
            mode: 'replay',
            match,
            runTools: 'all',
          }).then(
            (run) => run.result,
            (error: unknown) => {
              expect(error).toBeInstanceOf(TrajectoryDivergenceError);
              return undefined;
            },
          );
          for (const id of ran) expect(ranWhenRecorded.has(id), `call ${id} ran only today`).toBe(true);
          if (replayed === undefined) return;
          const outcomes = (calls: { id: string; outcome: string; rule?: string | undefined }[]) =>
            calls.map(({ id, outcome, rule }) => ({ id, outcome, rule }));
          expect(outcomes(replayed.toolCalls)).toEqual(
            outcomes(results.map((r) => ({ id: r.id, outcome: r.outcome, rule: r.rule }))),
          );
        },
      ),
      { numRuns: 60, seed: 7 },
    );
  });
});
