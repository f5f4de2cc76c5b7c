import { LegateError } from '../errors/LegateError.js';
import type { AgentResult } from '../runtime/agentResult.js';
import type { Trajectory } from '../trajectory/types.js';
import { describeTimeline } from './describeTimeline.js';
import { viewOf } from './runView.js';
import { describeRule, type SampleRule } from './sampleRule.js';

/** One sample of a file, run: passed, or why not. */
export interface SampleVerdict {
  /** 1-based, in file order. */
  sample: number;
  passed: boolean;
  /** Why it failed: the divergence, the error the run threw, or the check's failure. */
  error?: unknown;
  /** The run's result, when it got that far (a divergence stops a run before it has one). */
  result?: AgentResult;
  /** The sample as recorded. */
  trajectory: Trajectory;
}

/**
 * Too few of a file's samples passed for its rule. Names each failed sample, why it failed (the first lines of its
 * error) and its timeline; `samples` holds every verdict, with the errors themselves.
 */
export class SamplesFailedError extends LegateError {
  readonly code = 'samples_failed';
  /** Every sample's verdict, in file order (not enumerable: a test runner prints the message, not every run). */
  declare readonly samples: readonly SampleVerdict[];
  constructor(
    readonly file: string,
    readonly rule: SampleRule,
    samples: readonly SampleVerdict[],
  ) {
    super(samplesMessage(file, rule, samples));
    Object.defineProperty(this, 'samples', { value: samples, enumerable: false });
  }
}

/** `4/5 samples passed`. */
function passedFigure(samples: readonly SampleVerdict[]): string {
  return `${samples.filter((s) => s.passed).length}/${samples.length} samples passed`;
}

function samplesMessage(file: string, rule: SampleRule, samples: readonly SampleVerdict[]): string {
  const failed = samples.filter((s) => !s.passed);
  const which = failed.map((s) => s.sample).join(', ');
  const head =
    `${file}: ${passedFigure(samples)}, but the rule is ${describeRule(rule, samples.length)}; ` +
    `sample${failed.length === 1 ? '' : 's'} ${which} failed.`;
  const parts = failed.map((s) => {
    const [first = '', ...rest] = errorText(s.error, file).split('\n');
    const timeline = describeTimeline(viewOf(s.result ?? s.trajectory));
    const shown = s.result === undefined ? timeline.replace(/^Tool calls/, 'Tool calls (as recorded)') : timeline;
    return `Sample ${s.sample} of ${samples.length}: ${first}\n${indent([...rest, shown].join('\n'))}`;
  });
  return [head, ...parts].join('\n\n');
}

/** An error's message, without the file name it starts with when it names the file (the head names it once). */
function errorText(error: unknown, file: string): string {
  const text = (error instanceof Error ? error.message : String(error)).trim();
  return text.startsWith(`${file}: `) ? text.slice(file.length + 2) : text;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
