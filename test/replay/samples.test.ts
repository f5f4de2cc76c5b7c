import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  SamplesFailedError,
  TrajectoryDivergenceError,
  UsageError,
  defineTool,
  loadTrajectory,
  runTrajectory,
  samplesOf,
  type AgentFactory,
  type AgentResult,
} from '../../src/index.js';
import { seededModel } from '../support/seededModel.js';
import { useTempDir } from '../support/tempDir.js';

const tempDir = useTempDir();

/** The agent under test: one read-only lookup tool, whose answer today's code may change. */
function accountAgent(answer = 'open'): AgentFactory {
  return (transport) =>
    new Agent({
      name: 'accounts',
      model: 'claude-haiku-5-5',
      transport,
      tools: [
        defineTool({
          name: 'lookup',
          description: 'Looks an account up.',
          input: { type: 'object', properties: { account: { type: 'string' } }, required: ['account'] },
          annotations: { readOnly: true },
          run: ({ account }: { account: string }) => `${account}: ${answer}`,
        }),
      ],
    });
}

const lookedUp = (result: AgentResult) => {
  if (!result.toolCalls.some((call) => call.name === 'lookup')) throw new Error('the agent did not look it up');
};

/** Records `k` samples from the seeded model into a new file; what each sample did, in order. */
async function recordSamples(k: number, seed = 7) {
  const file = join(tempDir(), 'accounts.yaml');
  const model = seededModel(seed);
  const run = await runTrajectory({
    file,
    agent: accountAgent(),
    input: 'Is acct-7 open?',
    mode: 'record',
    samples: k,
    pass: { rate: 0.01 },
    transport: model.transport,
    report: false,
  });
  return { file, run, choices: model.choices };
}

describe('samples: several runs of the same input in one file', () => {
  it('records k samples, each a run of its own, in one file', async () => {
    const { file, run, choices } = await recordSamples(5);
    expect(choices).toHaveLength(5);
    // The seed gives both behaviours, so the samples differ.
    expect(new Set(choices).size).toBe(2);
    const samples = samplesOf(loadTrajectory(file));
    expect(samples.map((s) => s.turns.length)).toEqual(choices.map((lookup) => (lookup ? 2 : 1)));
    expect(run.samples?.map((s) => s.passed)).toEqual([true, true, true, true, true]);
    // The header is written once; each further sample holds only its run.
    const text = readFileSync(file, 'utf8');
    expect(text.match(/^input:/gm)).toHaveLength(1);
    expect(text.match(/^ {2}- turns:|^ {2}- clock:/gm)).toHaveLength(4);
  });

  it('replays every sample, running the check on each', async () => {
    const { file, choices } = await recordSamples(5);
    const seen: number[] = [];
    const run = await runTrajectory({
      file,
      agent: accountAgent(),
      mode: 'replay',
      pass: { atLeast: choices.filter(Boolean).length },
      check: (result, { sample, of }) => {
        expect(of).toBe(5);
        seen.push(sample);
        lookedUp(result);
      },
    });
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(run.samples?.map((s) => s.passed)).toEqual(choices);
    // The run's result is the first passing sample's.
    expect(run.result.toolCalls.map((c) => c.name)).toEqual(['lookup']);
  });

  it('fails by default (every sample, pass^k), naming each failed sample, why, and its timeline', async () => {
    const { file, choices } = await recordSamples(5);
    const failed = choices.flatMap((lookup, i) => (lookup ? [] : [i + 1]));
    const error = await runTrajectory({ file, agent: accountAgent(), mode: 'replay', check: lookedUp }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SamplesFailedError);
    const { message, samples } = error as SamplesFailedError;
    expect(message).toContain(`${5 - failed.length}/5 samples passed, but the rule is every sample (pass^5)`);
    expect(message).toContain(`samples ${failed.join(', ')} failed`);
    for (const n of failed) expect(message).toContain(`Sample ${n} of 5: the agent did not look it up`);
    expect(message).toContain('Tool calls: none (the run stopped with end_turn).');
    expect(samples.filter((s) => !s.passed).map((s) => s.sample)).toEqual(failed);
  });

  it('passes by at least m of k, or by a rate, and fails one below', async () => {
    const { file, choices } = await recordSamples(5);
    const passing = choices.filter(Boolean).length;
    const replay = (pass: { atLeast: number } | { rate: number }) =>
      runTrajectory({ file, agent: accountAgent(), mode: 'replay', pass, check: lookedUp });
    await expect(replay({ atLeast: passing })).resolves.toBeDefined();
    await expect(replay({ atLeast: passing + 1 })).rejects.toBeInstanceOf(SamplesFailedError);
    await expect(replay({ rate: passing / 5 })).resolves.toBeDefined();
    await expect(replay({ rate: (passing + 1) / 5 })).rejects.toThrow(`at least ${(passing + 1) * 20}% of 5`);
  });

  it('fails the samples a code change affects, and only those', async () => {
    const { file, choices } = await recordSamples(5);
    // Today's lookup answers differently: the samples that looked up now send another tool result.
    const error = await runTrajectory({ file, agent: accountAgent('closed'), mode: 'replay' }).catch((e) => e);
    expect(error).toBeInstanceOf(SamplesFailedError);
    const verdicts = (error as SamplesFailedError).samples;
    expect(verdicts.map((v) => v.passed)).toEqual(choices.map((lookup) => !lookup));
    for (const verdict of verdicts.filter((v) => !v.passed)) {
      expect(verdict.error).toBeInstanceOf(TrajectoryDivergenceError);
      expect((verdict.error as TrajectoryDivergenceError).turn).toBe(2);
    }
  });

  it('refuses a rule no file of these samples could meet, before running any', async () => {
    const { file } = await recordSamples(3);
    let ran = 0;
    const error = await runTrajectory({
      file,
      agent: accountAgent(),
      mode: 'replay',
      pass: { atLeast: 4 },
      check: () => void ran++,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('invalid_samples');
    expect(ran).toBe(0);
  });

  it('saves the samples when the rule fails while recording, then throws', async () => {
    const file = join(tempDir(), 'strict.yaml');
    const model = seededModel(7);
    const error = await runTrajectory({
      file,
      agent: accountAgent(),
      input: 'Is acct-7 open?',
      mode: 'record',
      samples: 5,
      check: lookedUp,
      transport: model.transport,
      report: false,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(SamplesFailedError);
    expect(samplesOf(loadTrajectory(file))).toHaveLength(5);
  });

  it('replays a file of one sample as it always has: its divergence is thrown as it is', async () => {
    const { file } = await recordSamples(1, 3);
    const error = await runTrajectory({ file, agent: accountAgent('closed'), mode: 'replay' }).catch((e) => e);
    // Seed 3's first draw looks the account up, so the changed answer diverges.
    expect(error).toBeInstanceOf(TrajectoryDivergenceError);
    expect(readFileSync(file, 'utf8')).not.toMatch(/^samples:/m);
  });

  it('refuses a number of samples that is not a whole number from 1 to 100', async () => {
    for (const samples of [0, 1.5, 101, Number.NaN]) {
      const error = await runTrajectory({
        file: join(tempDir(), 'x.yaml'),
        agent: accountAgent(),
        input: 'x',
        mode: 'record',
        samples,
      }).catch((e) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(/^The 'samples' option must be a whole number from 1 to 100/);
    }
  });
});
