import { AssertionError } from 'node:assert';
import { describe, expect, it } from 'vitest';
import { assertThat, loadTrajectory } from '../../src/index.js';
import { runBuilt } from '../support/builtPackage.js';

describe('assertThat, without vitest', () => {
  // A process of its own, with no vitest in it: node's own test runner, legate as installed (the built package).
  it('runs under node:test: the suite passes and a failing check is an AssertionError', async () => {
    const args = ['--test', '--test-reporter=spec', 'test/support/nodeTestSuite.mjs'];
    const run = await runBuilt(args, process.cwd());
    expect(run.stdout).toMatch(/pass 2/);
    expect(run.stdout).toMatch(/fail 0/);
    expect(run.status).toBe(0);
  }, 120_000);

  it("throws Node's AssertionError, with expected and actual where there are any", () => {
    const trajectory = loadTrajectory('trajectories/refusal.yaml');
    let thrown: unknown;
    try {
      assertThat(trajectory).stopped('end_turn');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AssertionError);
    expect(thrown).toMatchObject({ expected: 'end_turn', actual: 'refusal', operator: 'stopped' });
  });

  it('negates one check at a time', () => {
    const trajectory = loadTrajectory('trajectories/refusal.yaml');
    expect(() => assertThat(trajectory).not.stopped('end_turn').stopped('refusal')).not.toThrow();
    expect(() => assertThat(trajectory).not.stopped('refusal')).toThrow(
      'expected the run not to have stopped with refusal, but it did.',
    );
  });
});
