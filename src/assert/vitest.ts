/**
 * `legate/vitest`: importing this module (or listing it in vitest's `setupFiles`) adds legate's
 * matchers to `expect`, typed, so `expect(result).toBeTainted()` reads like the rest of a suite.
 */
import { expect } from 'vitest';
import type { CheckOutcome } from './checks.js';
import { matcherChecks, type LegateMatchers, type RunSubject } from './matchers.js';

export type { LegateMatchers } from './matchers.js';
export { replayTrajectory, type ReplayTrajectoryOptions } from './replayTrajectory.js';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<T = any> extends LegateMatchers<T> {}
}

type MatcherContext = { isNot: boolean; equals(a: unknown, b: unknown): boolean };

function toVitest(outcome: CheckOutcome, context: MatcherContext) {
  return {
    pass: outcome.pass,
    message: () => outcome.message(context.isNot),
    ...(outcome.expected === undefined && outcome.actual === undefined ? {} : { expected: outcome.expected, actual: outcome.actual }),
  };
}

expect.extend(
  Object.fromEntries(
    Object.entries(matcherChecks).map(([name, check]) => [
      name,
      function (this: MatcherContext, received: RunSubject, ...args: unknown[]) {
        return toVitest((check as (s: RunSubject, e: MatcherContext['equals'], ...a: unknown[]) => CheckOutcome)(received, (a, b) => this.equals(a, b), ...args), this);
      },
    ]),
  ),
);
