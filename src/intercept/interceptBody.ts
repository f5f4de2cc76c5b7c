import { checkRuleFits, concludeSamples, judgeSample, type SampleOf } from '../replay/sampleRuns.js';
import type { SampleVerdict } from '../replay/samplesFailedError.js';
import { samplesOf } from '../trajectory/samplesOf.js';
import type { Trajectory } from '../trajectory/types.js';
import type { InterceptSession } from './interceptSession.js';

/** What the body is told of the interception it runs under. */
export interface InterceptedSample {
  /** What the interception does: serve the file, record it, or neither (passthrough). */
  readonly mode: 'replay' | 'record' | 'passthrough';
  /** The trajectory file, absolute. */
  readonly file: string;
  /** In a replay, the sample served, as a trajectory of its own (see samplesOf); else undefined. */
  readonly trajectory: Trajectory | undefined;
}

/**
 * The code under test and its assertions, run once per sample (`sample` of `of`, 1-based): it fails that sample by
 * throwing (an `expect`). Each run's requests are that sample's: recorded as it, or answered from it alone.
 */
export type InterceptBody = (interception: InterceptedSample, sample: SampleOf) => unknown;

/** What the body form gives back, once the body has run on every sample and the rule held. */
export interface InterceptionRun {
  readonly mode: 'replay' | 'record' | 'passthrough';
  /** The trajectory file, absolute. */
  readonly file: string;
  /** The file replayed, or the one written; absent for passthrough. */
  readonly trajectory: Trajectory | undefined;
  /** For a file of several samples: each one's verdict, in file order. Absent for a file of one sample. */
  readonly samples?: readonly SampleVerdict[];
}

/**
 * Runs the body once per sample of the session: a recording runs it `samples` times, each run's traffic one sample
 * of the one file, written once at the end (whatever the samples did: it records the model); a replay runs it once
 * per sample the file holds, each answered from that sample's exchanges alone. A sample fails by a divergence, by
 * turns it never asked for, or by the body throwing; the file passes by the rule (`pass`), else SamplesFailedError.
 * With one sample, its failure is thrown as it is. In passthrough the body runs once, and nothing is judged.
 */
export async function runInterceptBody(
  session: InterceptSession,
  body: InterceptBody,
  whyNothing: () => string,
): Promise<InterceptionRun> {
  const { file, shown } = session;
  if (session.mode === 'passthrough') {
    await body({ mode: 'passthrough', file, trajectory: undefined }, { sample: 1, of: 1 });
    return { mode: 'passthrough', file, trajectory: undefined };
  }
  const { mode, pass, samples: of } = session;
  checkRuleFits(pass, of, shown);
  const verdicts: SampleVerdict[] = [];
  for (let n = 1; n <= of; n++) {
    const at = { sample: n, of };
    const sample = session.sample(n);
    const run = async () => {
      try {
        await body({ mode, file, trajectory: sample.trajectory }, at);
      } catch (error) {
        // The client's error for a refused request says less than the divergence that refused it.
        throw sample.failure ?? error;
      }
      return { trajectory: sample.finish(whyNothing()) };
    };
    verdicts.push(await judgeSample(at, () => sample.kept(), run, undefined));
  }
  await session.close(whyNothing());
  const trajectory = session.trajectory!;
  if (of === 1) {
    const only = verdicts[0]!;
    if (!only.passed) throw only.error;
    return { mode, file, trajectory };
  }
  // Each verdict with its sample as the file holds it (a recording's: redacted).
  const held = samplesOf(trajectory);
  const judged = verdicts.map((verdict) => ({ ...verdict, trajectory: held[verdict.sample - 1]! }));
  concludeSamples(shown, pass, judged);
  return { mode, file, trajectory, samples: judged };
}
