import { UsageError } from '../errors/UsageError.js';
import { quoteValue } from '../json/describeValue.js';
import type { AgentResult } from '../runtime/agentResult.js';
import type { StopReason } from '../runtime/stopReason.js';
import { COMPLETE_STOP_REASONS } from '../trajectory/completeStopReasons.js';
import type { Trajectory } from '../trajectory/types.js';
import { outcome, type CheckedRun, type CheckOutcome } from './checkOutcome.js';
import type { CallView } from '../replay/runView.js';
import { unsafeFlowOutcome } from './unsafeFlow.js';
import type { AuditDeclarations } from '../guard/auditDeclarations.js';
import { SEQUENCE_MODE_WORDS, SEQUENCE_MODES, sequenceMatches, type SequenceMode } from './toolSequence.js';
import type { TrajectoryMatchOptions } from './trajectoryMatch.js';
import { trajectoryMatchOutcome } from './trajectoryMatchOutcome.js';
import type { TrajectoryReference } from './trajectoryReference.js';

/** What a matcher can be given: a live result or a loaded trajectory. */
export type RunSubject = AgentResult | Trajectory;

const names = (calls: CallView[]) => calls.map((call) => call.name);
const quote = (name: string) => `'${name}'`;
const times = (n: number) => `${n} time${n === 1 ? '' : 's'}`;

/**
 * The verbs a matcher's name starts with, each with what starts its `assertThat` name instead: `toBe` and `toHave`
 * are dropped (`toBeTainted` is `tainted`, `toHaveBlocked` is `blocked`), `toMatch` becomes `matches`
 * (`toMatchTrajectory` is `matchesTrajectory`). The one statement of the rule: the table's names, `ShortName` and
 * `shortName` all read it.
 */
const VERBS = { toBe: '', toHave: '', toMatch: 'matches' } as const;
type Verb = keyof typeof VERBS;

/**
 * legate's matchers, written once: the name of each (a verb of `VERBS`, then what it checks), its check, and its
 * description (the doc comment). The vitest matchers (`legate/vitest`), their types and the methods of `assertThat`
 * (the short name `VERBS` gives) all derive from this table, so a matcher is added by adding an entry here.
 */
export const matchers = {
  /** The run read untrusted content (optionally from this tool). */
  toBeTainted({ view }: CheckedRun, options: { source?: string } = {}): CheckOutcome {
    const pass = view.tainted && (options.source === undefined || view.taintSource === options.source);
    const what = options.source === undefined ? 'be tainted' : `be tainted by ${quote(options.source)}`;
    const taintedBy = `but it was tainted by ${quote(view.taintSource ?? '?')}`;
    return outcome(view, pass, what, view.tainted ? taintedBy : 'but no untrusted tool succeeded', taintedBy);
  },

  /** A guard (or a person) refused a call (optionally of this tool, by this rule, from this taint source). */
  toHaveBlocked({ view }: CheckedRun, tool?: string, options: { rule?: string; source?: string } = {}): CheckOutcome {
    const matches = view.calls.filter(
      (call) =>
        call.outcome === 'blocked' &&
        (tool === undefined || call.name === tool) &&
        (options.rule === undefined || call.rule === options.rule) &&
        (options.source === undefined || call.source === options.source),
    );
    const detail = [
      options.rule === undefined ? '' : ` by rule ${quote(options.rule)}`,
      options.source === undefined ? '' : ` with source ${quote(options.source)}`,
    ].join('');
    const what = `have blocked ${tool === undefined ? 'a call' : quote(tool)}${detail}`;
    const blocked = matches.map((c) => `${quote(c.name)} (${c.rule ?? '?'})`).join(', ');
    return outcome(view, matches.length > 0, what, 'but it did not', `but it blocked ${blocked}`);
  },

  /** The run ended through its terminal tool. */
  toBeTerminal({ view }: CheckedRun): CheckOutcome {
    const but = `but it stopped with ${view.stopReason}`;
    return outcome(view, view.stopReason === 'terminal', 'have ended through its terminal tool', but, 'but it did');
  },

  /**
   * The run stopped for this reason (`end_turn`, `max_tokens`, `refusal`, `terminal`, `suspended`, ..., or a
   * stop reason the API added after this release, as it sent it).
   */
  toHaveStopped({ view }: CheckedRun, reason: StopReason): CheckOutcome {
    return outcome(
      view,
      view.stopReason === reason,
      `have stopped with ${reason}`,
      `but it stopped with ${view.stopReason}`,
      'but it did',
      {
        expected: reason,
        actual: view.stopReason,
      },
    );
  },

  /**
   * The conversation ended with this agent after a handoff, or was handed along exactly this chain: the agents
   * handed to, in order, without the agent that started the run (`[]`: no handoff).
   */
  toHaveHandedOffTo({ view }: CheckedRun, agents: string | readonly string[]): CheckOutcome {
    const start = view.startedWith;
    if (typeof agents !== 'string') {
      const pass = view.handoffs.length === agents.length && agents.every((agent, i) => view.handoffs[i] === agent);
      const hint =
        agents[0] === start && view.handoffs[0] !== start
          ? ` (the chain lists the agents handed to: it leaves out ${quote(start)}, which started the run)`
          : '';
      const but = `but it handed off along ${view.handoffs.join(' → ') || '(no handoff)'}${hint}`;
      return outcome(view, pass, `have handed off along ${agents.join(' → ')}`, but, 'but it did', {
        expected: [...agents],
        actual: view.handoffs,
      });
    }
    const last = view.handoffs[view.handoffs.length - 1];
    const hint = agents === start && last !== start ? ` (${quote(start)} started the run: it was not handed to)` : '';
    const but = `${last === undefined ? 'but it made no handoff' : `but it ended with ${quote(last)}`}${hint}`;
    return outcome(view, last === agents, `have handed off to ${quote(agents)}`, but, 'but it did');
  },

  /**
   * The model called this tool (with an input equal to this one: under vitest, asymmetric matchers
   * and the equality testers added with `expect.addEqualityTesters` work).
   */
  toHaveCalledTool({ view, equals }: CheckedRun, name: string, input?: unknown): CheckOutcome {
    const calls = view.calls.filter((call) => call.name === name);
    const pass = calls.some((call) => input === undefined || equals(call.input, input));
    const what =
      input === undefined ? `have called ${quote(name)}` : `have called ${quote(name)} with ${quoteValue(input)}`;
    const but =
      calls.length === 0
        ? 'but it never called it'
        : `but it called it with ${calls.map((c) => quoteValue(c.input)).join(', ')}`;
    const diff = input === undefined || calls.length === 0 ? undefined : { expected: input, actual: calls[0]!.input };
    return outcome(view, pass, what, but, `but it called it ${times(calls.length)}`, diff);
  },

  /** The model called this tool exactly this many times. */
  toHaveCalledToolTimes({ view }: CheckedRun, name: string, expected: number): CheckOutcome {
    const count = view.calls.filter((call) => call.name === name).length;
    const what = `have called ${quote(name)} ${times(expected)}`;
    return outcome(view, count === expected, what, `but it called it ${times(count)}`, 'but it did', {
      expected,
      actual: count,
    });
  },

  /**
   * The tools the model called, in order: `exact` (default), `inOrder` (these in this order, others
   * allowed between), `anyOrder` (exactly these, any order), `atLeast` (these and maybe more),
   * `atMost` (only tools from these).
   */
  toHaveToolSequence(
    { view }: CheckedRun,
    expected: readonly string[],
    options: { mode?: SequenceMode } = {},
  ): CheckOutcome {
    const mode = options.mode ?? 'exact';
    if (!SEQUENCE_MODES.includes(mode)) {
      const modes = SEQUENCE_MODES.join(', ');
      throw new UsageError(
        'invalid_sequence_mode',
        `the sequence mode must be one of ${modes}, but it was ${quoteValue(mode)}.`,
      );
    }
    const actual = names(view.calls);
    const called = `but it called [${actual.join(', ')}]`;
    const what = `have called ${SEQUENCE_MODE_WORDS[mode]} [${expected.join(', ')}]`;
    return outcome(view, sequenceMatches(actual, expected, mode), what, called, called, {
      expected: [...expected],
      actual,
    });
  },

  /**
   * The run's tool calls match a reference's: a list of `{ tool, input? }`, a `Trajectory`, an `AgentResult` or a
   * trajectory file's path. `order`: `strict` (default; call by call), `unordered` (the same calls, any order),
   * `subset` (every call made is in the reference), `superset` (every reference call was made). `args`: `exact`
   * (default), `ignore`, `subset` (the input sent is within the reference's), `superset` (it holds the reference's), a
   * function `(actual, expected, tool) => boolean`, or these by tool (`{ default?, send_email: 'ignore' }`).
   */
  toMatchTrajectory(
    { view, equals }: CheckedRun,
    reference: TrajectoryReference,
    options: TrajectoryMatchOptions = {},
  ): CheckOutcome {
    return trajectoryMatchOutcome(view, reference, options, equals);
  },

  /**
   * Shadow mode planned an effect of this tool (with this input, as the model sent it; compared as
   * in `toHaveCalledTool`).
   */
  toHavePlannedEffect({ view, equals }: CheckedRun, tool: string, input?: unknown): CheckOutcome {
    const planned = view.calls.filter((call) => call.outcome === 'planned' && call.name === tool);
    const pass = planned.some((call) => input === undefined || equals(call.input, input));
    const what = `have planned an effect of ${quote(tool)}${input === undefined ? '' : ` with ${quoteValue(input)}`}`;
    return outcome(
      view,
      pass,
      what,
      planned.length === 0 ? 'but it planned none' : 'but its input differed',
      'but it did',
    );
  },

  /** The run is suspended, waiting for a person to approve a call. */
  toBeSuspended({ view }: CheckedRun): CheckOutcome {
    const pending = view.calls.filter((call) => call.outcome === 'suspended').map((c) => quote(c.name));
    const but = `but it stopped with ${view.stopReason}`;
    return outcome(
      view,
      view.stopReason === 'suspended',
      'be suspended for approval',
      but,
      `but it waits for approval of ${pending.join(', ')}`,
    );
  },

  /**
   * The guard would have refused none of the recorded calls had these tools been declared untrusted or
   * privileged and these rules been in force (a trajectory only: see `auditTrajectory`). A failure names
   * each unsafe call and its taint source, with the timeline.
   */
  toHaveNoUnsafeFlow({ subject }: CheckedRun, declarations: AuditDeclarations): CheckOutcome {
    return unsafeFlowOutcome(subject, declarations);
  },

  /** The binder refused a call of this tool (optionally for this argument, with this code). */
  toHaveInvalidArgument(
    { view }: CheckedRun,
    tool: string,
    options: { argument?: string; code?: string } = {},
  ): CheckOutcome {
    const matches = view.calls.filter(
      (call) =>
        call.outcome === 'invalid' &&
        call.name === tool &&
        (options.argument === undefined || call.argument === options.argument) &&
        (options.code === undefined || call.code === options.code),
    );
    const detail = [
      options.argument === undefined ? '' : ` argument ${quote(options.argument)}`,
      options.code === undefined ? '' : ` (${options.code})`,
    ].join('');
    const what = `have refused an invalid${detail} for ${quote(tool)}`;
    return outcome(view, matches.length > 0, what, 'but the binder refused no such call', 'but it did');
  },

  /** No call ended in `error`: no tool threw, nor returned an error result (`toolError`). */
  toHaveNoToolFailures({ view }: CheckedRun): CheckOutcome {
    const failed = view.calls.filter((call) => call.outcome === 'error');
    const but = `but ${failed.map((c) => quote(c.name)).join(', ')} failed`;
    return outcome(view, failed.length === 0, 'have no tool failures', but, 'but no tool failed');
  },

  /**
   * Ended normally: not cut off by max_tokens, refused, suspended or out of turns (nor stopped for a reason
   * this release does not know).
   */
  toBeComplete({ view }: CheckedRun): CheckOutcome {
    const complete = COMPLETE_STOP_REASONS.includes(view.stopReason);
    const what = 'be complete (not cut off, refused, suspended or out of turns)';
    return outcome(
      view,
      complete,
      what,
      `but it stopped with ${view.stopReason}`,
      `but it ended normally with ${view.stopReason}`,
    );
  },

  /** The run's token usage stayed below these limits. */
  toHaveUsageBelow({ view }: CheckedRun, limits: { inputTokens?: number; outputTokens?: number }): CheckOutcome {
    const keys = (['inputTokens', 'outputTokens'] as const).filter((key) => limits[key] !== undefined);
    const over = keys.filter((key) => view.usage[key] >= limits[key]!);
    const wanted = keys.map((key) => `${key} below ${limits[key]}`);
    const used = `but it used ${view.usage.inputTokens} inputTokens and ${view.usage.outputTokens} outputTokens`;
    return outcome(
      view,
      over.length === 0,
      `have used ${wanted.join(' and ')}`,
      `but it used ${over.map((key) => `${view.usage[key]} ${key}`).join(' and ')}`,
      used,
    );
  },
} satisfies Record<`${Verb}${string}`, (run: CheckedRun, ...args: never[]) => CheckOutcome>;

type Table = typeof matchers;
/** The arguments a matcher takes after the run (with their names, for the editor's hints). */
type ArgumentsOf<K extends keyof Table> = Table[K] extends (run: CheckedRun, ...args: infer A) => CheckOutcome
  ? A
  : never;

/** legate's matchers, typed for `expect(result)`; `R` is what each returns (vitest's assertion). */
export type LegateMatchers<R = unknown> = { [K in keyof Table]: (...args: ArgumentsOf<K>) => R };

/** A matcher's name in `assertThat`, by `VERBS`: `toBeTainted` is `tainted`, `toMatchTrajectory` `matchesTrajectory`.
 */
type ShortName<K> = {
  [V in Verb]: K extends `${V}${infer Rest}`
    ? (typeof VERBS)[V] extends ''
      ? Uncapitalize<Rest>
      : `${(typeof VERBS)[V]}${Rest}`
    : never;
}[Verb];

/** The same checks, each under its short name; `R` is what each returns (the chain of `assertThat`). */
export type ShortMatchers<R> = { [K in keyof Table as ShortName<K>]: (...args: ArgumentsOf<K>) => R };

export function shortName<K extends keyof Table>(name: K): ShortName<K> {
  const verb = (Object.keys(VERBS) as Verb[]).find((start) => name.startsWith(start))!;
  const rest = name.slice(verb.length);
  const short = VERBS[verb] === '' ? rest.charAt(0).toLowerCase() + rest.slice(1) : `${VERBS[verb]}${rest}`;
  return short as ShortName<K>;
}
