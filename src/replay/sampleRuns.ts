import { LegateError } from '../errors/LegateError.js';
import { UsageError } from '../errors/UsageError.js';
import type { AgentResult } from '../runtime/agentResult.js';
import { TransportError } from '../transport/transport.js';
import { TrajectoryFormatError } from '../trajectory/errors.js';
import { SecretInTrajectoryError } from '../trajectory/secretScan.js';
import type { Trajectory } from '../trajectory/types.js';
import { ConfigError } from './projectConfig.js';
import { SamplesFailedError, type SampleVerdict } from './samplesFailedError.js';
import { ruleHolds, type SampleRule } from './sampleRule.js';

/** Which sample a check is looking at: the 1-based `sample` of `of`. */
export interface SampleOf {
  sample: number;
  of: number;
}

/** The test body run on each sample's result; it fails the sample by throwing (an assertion). */
export type SampleCheck = (result: AgentResult, sample: SampleOf) => unknown;

/**
 * One sample, run: the agent's result and the sample as recorded. A sample at the HTTP boundary has no result: it is
 * a run of the test's own body, which is its own check.
 */
interface SampleRun {
  result?: AgentResult;
  trajectory: Trajectory;
}

/**
 * Runs one sample and its check (on the run's result, when it has one), and says whether it passed. A divergence, an
 * error of the run and a failed check fail the sample; so does an error `run` throws, when `recorded` still gives
 * the sample (else it is thrown: there is no sample to judge). A problem that would fail every sample alike (bad
 * input, a config, a file, a setting of the live transport, a secret refused) stops the whole run at once.
 */
export async function judgeSample(
  at: SampleOf,
  recorded: () => Trajectory | undefined,
  run: () => Promise<SampleRun>,
  check: SampleCheck | undefined,
): Promise<SampleVerdict> {
  let outcome: SampleRun | undefined;
  try {
    outcome = await run();
    if (outcome.result !== undefined) await check?.(outcome.result, at);
    return { sample: at.sample, passed: true, ...resultOf(outcome), trajectory: outcome.trajectory };
  } catch (error) {
    if (failsEverySample(error)) throw error;
    const trajectory = outcome?.trajectory ?? recorded();
    if (trajectory === undefined) throw error;
    return { sample: at.sample, passed: false, error, ...resultOf(outcome), trajectory };
  }
}

const resultOf = (outcome: SampleRun | undefined) => (outcome?.result === undefined ? {} : { result: outcome.result });

function failsEverySample(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof TrajectoryFormatError ||
    error instanceof SecretInTrajectoryError ||
    (error instanceof TransportError && error.setting !== undefined) ||
    (error instanceof LegateError && error.code === 'samples_failed')
  );
}

/** The verdicts under the rule: the first passing sample when it holds, else the failure naming each failed one. */
export function concludeSamples(file: string, rule: SampleRule, verdicts: SampleVerdict[]): SampleVerdict {
  checkRuleFits(rule, verdicts.length, file);
  const passed = verdicts.filter((v) => v.passed);
  const first = passed[0];
  if (!ruleHolds(rule, passed.length, verdicts.length) || first === undefined)
    throw new SamplesFailedError(file, rule, verdicts);
  return first;
}

/** A rule that no run of this file could meet is bad input, not a failed test. */
export function checkRuleFits(rule: SampleRule, total: number, file: string): void {
  if (typeof rule === 'object' && 'atLeast' in rule && rule.atLeast > total)
    throw new UsageError(
      'invalid_samples',
      `The pass rule asks for at least ${rule.atLeast} passing samples, but ${file} holds ${total}: record more ` +
        `samples (samples: ${rule.atLeast} or more) or lower the rule.`,
    );
}
