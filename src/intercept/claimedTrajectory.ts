/**
 * The key of a vitest test's `meta` that names the trajectory file interceptThisTest claimed for it. vitest hands a
 * test's `meta` from the worker that ran it to the reporters (`testCase.meta()`), so the obsolete-trajectories reporter
 * learns which files the run's tests recorded to without a channel of its own.
 */
const CLAIMED = 'legateTrajectory';

/** Leaves in a test's `meta` the trajectory file it claimed (absolute). */
export function markClaimed(meta: Record<string, unknown>, file: string): void {
  meta[CLAIMED] = file;
}

/** The trajectory file a test claimed, from its `meta`; undefined when it claimed none. */
export function claimedTrajectory(meta: Readonly<Record<string, unknown>>): string | undefined {
  const file = meta[CLAIMED];
  return typeof file === 'string' ? file : undefined;
}
