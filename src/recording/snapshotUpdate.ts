/**
 * True when vitest runs with `-u` (`--update`): the suite is asked to bring every recorded expectation up to date.
 * Read from `expect.getState().snapshotState.snapshotUpdateState` (`all` under `-u`; `new` or `none` otherwise), a
 * public getter of vitest's SnapshotState since vitest 3. The one place legate reads it: a vitest that moves it
 * fails test/intercept/interceptTest.test.ts, which runs vitest with and without `update`.
 */
export function isUpdatingSnapshots(state: { snapshotState?: unknown }): boolean {
  const snapshotState = state.snapshotState as { snapshotUpdateState?: unknown } | undefined;
  return snapshotState?.snapshotUpdateState === 'all';
}
