// A node:test suite using the framework-free assertions; run by test/assert/assertThat.test.ts with plain node, legate
// imported by its package name: the built package, as a project's own suite imports it.
import assert, { AssertionError } from 'node:assert';
import { test } from 'node:test';
import { assertThat, loadTrajectory } from 'legate';

const zeroTrust = loadTrajectory('trajectories/zero-trust.yaml');

test('the zero-trust trajectory: tainted by the page, the payment blocked', () => {
  assertThat(zeroTrust)
    .tainted({ source: 'fetch_page' })
    .blocked('send_payment', { rule: 'taint' })
    .complete()
    .noToolFailures();
  assertThat(zeroTrust).not.blocked('fetch_page').calledTool('fetch_page', { url: 'https://example.com/invoice/42' });
});

test('a failing check throws an AssertionError with the timeline', () => {
  assert.throws(
    () => assertThat(zeroTrust).calledToolTimes('send_payment', 2),
    (error) =>
      error instanceof AssertionError &&
      error.message.includes('but it called it 1 time.') &&
      error.message.includes('send_payment  blocked (taint, source fetch_page)'),
  );
});
