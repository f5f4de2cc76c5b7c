/**
 * `legate/vitest`: importing this module (or listing it in vitest's `setupFiles`) adds legate's
 * matchers to `expect`, typed, so `expect(result).toBeTainted()` reads like the rest of a suite.
 */
import { expect } from 'vitest';
import type { CheckOutcome, CheckedRun } from './checkOutcome.js';
import { matchers, type LegateMatchers, type RunSubject } from './matchers.js';
import { viewOf } from '../replay/runView.js';

export type { LegateMatchers } from './matchers.js';
export { replayTrajectory, type ReplayTrajectoryOptions } from './replayTrajectory.js';

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: vitest declares Matchers<T = any>; a merged declaration must match it.
  interface Matchers<T = any> extends LegateMatchers<T> {}
}

/** The part of vitest's matcher context a check needs. */
type MatcherContext = Pick<ReturnType<typeof expect.getState>, 'isNot' | 'equals' | 'customTesters'>;

function toVitest(outcome: CheckOutcome, context: MatcherContext) {
  return {
    pass: outcome.pass,
    message: () => outcome.message(context.isNot),
    ...(outcome.expected === undefined && outcome.actual === undefined
      ? {}
      : { expected: outcome.expected, actual: outcome.actual }),
  };
}

type AnyCheck = (run: CheckedRun, ...args: unknown[]) => CheckOutcome;

expect.extend(
  Object.fromEntries(
    Object.entries(matchers as Record<string, AnyCheck>).map(([name, check]) => [
      name,
      function (this: MatcherContext, received: RunSubject, ...args: unknown[]) {
        // Arguments are compared as `toEqual` compares them: with the testers added by `expect.addEqualityTesters`.
        const equals = (actual: unknown, expected: unknown) => this.equals(actual, expected, this.customTesters);
        return toVitest(check({ view: viewOf(received), subject: received, equals }, ...args), this);
      },
    ]),
  ),
);
