import { AssertionError } from 'node:assert';
import { isDeepStrictEqual } from 'node:util';
import type { CheckOutcome, CheckedRun } from './checkOutcome.js';
import { matchers, shortName, type RunSubject, type ShortMatchers } from './matchers.js';
import { viewOf } from '../replay/runView.js';

/**
 * The checks of legate's matchers, without vitest, each under its short name (`toBeTainted` is
 * `tainted`, `toHaveBlocked` is `blocked`). A failing check throws Node's `AssertionError`, so
 * node:test, jest and mocha suites get them too. Arguments are compared with `isDeepStrictEqual`.
 */
export interface RunAssertions extends ShortMatchers<RunAssertions> {
  /** The next check, negated. */
  readonly not: RunAssertions;
}

/**
 * Chainable assertions on a run (an `AgentResult` or a loaded `Trajectory`):
 *
 *     assertThat(result).tainted({ source: 'fetch_page' }).blocked('send_payment').complete();
 */
export function assertThat(subject: RunSubject): RunAssertions {
  return assertions({ view: viewOf(subject), subject, equals: isDeepStrictEqual }, false);
}

type AnyCheck = (run: CheckedRun, ...args: unknown[]) => CheckOutcome;

function assertions(run: CheckedRun, negated: boolean): RunAssertions {
  const chain: Record<string, unknown> = {};
  Object.defineProperty(chain, 'not', { get: () => assertions(run, !negated) });
  for (const [name, check] of Object.entries(matchers as Record<string, AnyCheck>)) {
    const short = shortName(name as keyof typeof matchers);
    // A named function: the AssertionError's `operator` is the check's name, and its stack starts at the caller.
    const method = {
      [short](...args: unknown[]) {
        const result = check(run, ...args);
        if (result.pass === negated) throw failure(result, negated, method);
        // A negation applies to one check; the chain goes on un-negated.
        return negated ? assertions(run, false) : chain;
      },
    }[short]!;
    chain[short] = method;
  }
  return chain as unknown as RunAssertions;
}

function failure(outcome: CheckOutcome, negated: boolean, caller: (...args: never[]) => unknown): AssertionError {
  return new AssertionError({
    message: outcome.message(negated),
    ...(outcome.expected === undefined && outcome.actual === undefined
      ? {}
      : { expected: outcome.expected, actual: outcome.actual }),
    operator: caller.name,
    stackStartFn: caller,
  });
}
