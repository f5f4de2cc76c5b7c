import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTrajectory, type ModelResponse, type Transport } from 'legate';
import { agentOf } from './replayCorpus.js';
import { measureEach, MICROSECONDS, report, type Measurement } from './harness.js';

/** Conversation lengths measured: replay's cost per turn must not grow with them. */
const LENGTHS = [10, 1_000, 10_000] as const;

/**
 * The model of a `turns`-turn conversation: a tool call per turn, then an answer. A transport of its own rather
 * than ScriptedTransport, which keeps a copy of every request: at 10,000 turns the copies of the conversation's
 * message lists would be most of the recording's cost.
 */
function model(turns: number): Transport {
  let turn = 0;
  return {
    send: async (): Promise<ModelResponse> => {
      turn++;
      const content: ModelResponse['content'] =
        turn < turns
          ? [
              { type: 'text', text: `Checking ${turn}.` },
              { type: 'tool_use', id: `toolu_${turn}`, name: 'lookup_record', input: { id: turn } },
            ]
          : [{ type: 'text', text: 'Done.' }];
      const stop = turn < turns ? 'tool_use' : 'end_turn';
      return {
        id: `msg_${turn}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-haiku-5-5',
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      } as ModelResponse;
    },
  };
}

/**
 * Replay's CPU time per turn for files of 10, 1,000 and 10,000 turns (one tool call a turn), each recorded by the
 * runtime at the start: the 1,000- and 10,000-turn lines beside the 10-turn one, whose per-turn figure also carries
 * the per-file costs (reading the file, starting the run) spread over only ten turns. Goal: within 1.3x.
 */
export async function benchReplayTurns(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'legate-bench-turns-'));
  try {
    const files = new Map<number, string>();
    for (const turns of LENGTHS) {
      const file = join(dir, `turns-${turns}.yaml`);
      await runTrajectory({
        file,
        agent: agentOf(turns),
        input: 'Check them all.',
        mode: 'record',
        transport: () => model(turns),
      });
      files.set(turns, file);
    }
    const measured = await measureEach(
      LENGTHS.map((turns) => ({
        name: `${turns.toLocaleString('en-US')} turns`,
        operation: () => runTrajectory({ file: files.get(turns)!, agent: agentOf(turns), mode: 'replay' }),
      })),
      { rounds: 5, roundMs: 1000 },
    );
    console.log(
      "Replay per turn, by the conversation's length: CPU time per turn, median (min-max) of 5 alternating rounds",
    );
    const perTurn = (m: Measurement, turns: number): Measurement => {
      const rounds = m.rounds.map((micros) => micros / turns);
      return {
        ...m,
        rounds,
        median: m.median / turns,
        min: m.min / turns,
        max: m.max / turns,
        opsPerSecond: m.opsPerSecond * turns,
      };
    };
    const ten = perTurn(measured[0]!, LENGTHS[0]);
    for (const [i, turns] of LENGTHS.entries()) {
      if (i === 0) continue;
      report({
        section: 'turns',
        line: `${turns.toLocaleString('en-US')} turns beside 10, per turn`,
        ours: perTurn(measured[i]!, turns),
        anchor: ten,
        scale: MICROSECONDS,
        goal: { most: 1.3, label: 'goal <= 1.3x the cost per turn at 10 turns' },
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
