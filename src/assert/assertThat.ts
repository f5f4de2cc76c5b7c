import { AssertionError } from 'node:assert';
import { isDeepStrictEqual } from 'node:util';
import type { CheckOutcome, SequenceMode } from './checks.js';
import { matcherChecks, type RunSubject } from './matchers.js';

/**
 * The same checks as the vitest matchers, without vitest: each throws Node's `AssertionError`
 * when it fails, so node:test, jest and mocha suites get them too. Chainable:
 *
 *     assertThat(result).tainted({ source: 'fetch_page' }).blocked('send_payment').complete();
 */
export function assertThat(subject: RunSubject): RunAssertions {
  return new RunAssertions(subject, false);
}

export class RunAssertions {
  constructor(
    private readonly subject: RunSubject,
    private readonly negated: boolean,
  ) {}

  /** The next check, negated. */
  get not(): RunAssertions {
    return new RunAssertions(this.subject, !this.negated);
  }

  tainted(options?: { source?: string }): RunAssertions {
    return this.#check(matcherChecks.toBeTainted(this.subject, isDeepStrictEqual, options), this.tainted);
  }
  blocked(tool?: string, options?: { rule?: string; source?: string }): RunAssertions {
    return this.#check(matcherChecks.toHaveBlocked(this.subject, isDeepStrictEqual, tool, options), this.blocked);
  }
  terminal(): RunAssertions {
    return this.#check(matcherChecks.toBeTerminal(this.subject), this.terminal);
  }
  stopped(reason: string): RunAssertions {
    return this.#check(matcherChecks.toHaveStopped(this.subject, isDeepStrictEqual, reason), this.stopped);
  }
  handedOffTo(agents: string | readonly string[]): RunAssertions {
    return this.#check(matcherChecks.toHaveHandedOffTo(this.subject, isDeepStrictEqual, agents), this.handedOffTo);
  }
  calledTool(name: string, input?: unknown): RunAssertions {
    return this.#check(matcherChecks.toHaveCalledTool(this.subject, isDeepStrictEqual, name, input), this.calledTool);
  }
  calledToolTimes(name: string, times: number): RunAssertions {
    return this.#check(matcherChecks.toHaveCalledToolTimes(this.subject, isDeepStrictEqual, name, times), this.calledToolTimes);
  }
  toolSequence(names: readonly string[], options?: { mode?: SequenceMode }): RunAssertions {
    return this.#check(matcherChecks.toHaveToolSequence(this.subject, isDeepStrictEqual, names, options), this.toolSequence);
  }
  plannedEffect(tool: string, input?: unknown): RunAssertions {
    return this.#check(matcherChecks.toHavePlannedEffect(this.subject, isDeepStrictEqual, tool, input), this.plannedEffect);
  }
  suspended(): RunAssertions {
    return this.#check(matcherChecks.toBeSuspended(this.subject), this.suspended);
  }
  invalidArgument(tool: string, options?: { argument?: string; code?: string }): RunAssertions {
    return this.#check(matcherChecks.toHaveInvalidArgument(this.subject, isDeepStrictEqual, tool, options), this.invalidArgument);
  }
  noToolFailures(): RunAssertions {
    return this.#check(matcherChecks.toHaveNoToolFailures(this.subject), this.noToolFailures);
  }
  complete(): RunAssertions {
    return this.#check(matcherChecks.toBeComplete(this.subject), this.complete);
  }
  usageBelow(limits: { inputTokens?: number; outputTokens?: number }): RunAssertions {
    return this.#check(matcherChecks.toHaveUsageBelow(this.subject, isDeepStrictEqual, limits), this.usageBelow);
  }

  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  #check(outcome: CheckOutcome, caller: Function): RunAssertions {
    if (outcome.pass === this.negated) {
      throw new AssertionError({
        message: outcome.message(this.negated),
        ...(outcome.expected === undefined && outcome.actual === undefined ? {} : { expected: outcome.expected, actual: outcome.actual }),
        operator: caller.name,
        stackStartFn: caller,
      });
    }
    // A negation applies to one check; the chain goes on un-negated.
    return this.negated ? new RunAssertions(this.subject, false) : this;
  }
}
