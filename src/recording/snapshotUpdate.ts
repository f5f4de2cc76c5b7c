/**
 * True when vitest runs with `-u` (`--update`): the suite is asked to bring every recorded expectation up to date.
 * Read in a test from `expect.getState().snapshotState.snapshotUpdateState` (`all` under `-u`; `new` or `none`
 * otherwise), a public getter of vitest's SnapshotState since vitest 3. One of the two places legate reads it: a
 * vitest that moves it fails test/intercept/interceptTest.test.ts, which runs vitest with and without `update`.
 */
export function isUpdatingSnapshots(state: { snapshotState?: unknown }): boolean {
  const snapshotState = state.snapshotState as { snapshotUpdateState?: unknown } | undefined;
  return snapshotState?.snapshotUpdateState === 'all';
}

/**
 * isUpdatingSnapshots for a reporter, in vitest's own process: read from its snapshot manager
 * (`vitest.snapshot.options.updateSnapshot`, `all` under `-u` and while watch mode's `u` reruns), the setting the
 * test workers' snapshot state is made from. The other place legate reads it: a vitest that moves it fails
 * test/intercept/obsoleteTrajectories.test.ts, which runs vitest with and without `-u`.
 */
export function isUpdateRun(snapshot: { options?: { updateSnapshot?: unknown } }): boolean {
  return snapshot.options?.updateSnapshot === 'all';
}
