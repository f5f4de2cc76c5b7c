import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../src/assert/vitest.js';
import {
  Agent,
  ScriptedTransport,
  UsageError,
  assertThat,
  loadTrajectory,
  resolveMode,
  runTrajectory,
  type UsageErrorCode,
} from '../../src/index.js';
import { createRedactor } from '../../src/trajectory/redaction.js';
import { useTempDir } from '../support/tempDir.js';

/** Runs an action that must refuse with a UsageError of this code; returns its message. */
async function refusal(code: UsageErrorCode, action: () => unknown): Promise<string> {
  let thrown: unknown;
  try {
    await action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(UsageError);
  expect((thrown as UsageError).code).toBe(code);
  return (thrown as Error).message;
}

const agent = () => new Agent({ name: 'a', model: 'm', tools: [], transport: new ScriptedTransport([]) });

describe('a refusal of what legate was called with is a UsageError with a code', () => {
  it('agent.run refuses an input that is not a non-empty string or list of blocks', async () => {
    const notInput = fc.oneof(
      fc.constant(''),
      fc.constant([]),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.object(),
    );
    await fc.assert(
      fc.asyncProperty(notInput, async (input) => {
        expect(await refusal('invalid_run_input', () => agent().run(input as never))).toContain(
          `agent.run needs the user's input`,
        );
      }),
      { numRuns: 30 },
    );
  });

  it('the assertions refuse a subject that is not a run', async () => {
    expect(await refusal('not_a_run', () => assertThat({ text: 'hi' } as never))).toContain(
      'legate assertions take an AgentResult',
    );
    await refusal('not_a_run', () => expect(42).toBeTainted());
    const run = loadTrajectory('trajectories/zero-trust.yaml');
    const subset = { mode: 'subset' } as never;
    expect(await refusal('invalid_sequence_mode', () => expect(run).toHaveToolSequence(['fetch_page'], subset))).toBe(
      `the sequence mode must be one of exact, inOrder, anyOrder, atLeast, atMost, but it was "subset".`,
    );
    await refusal('invalid_sequence_mode', () => assertThat(run).not.toolSequence(['fetch_page'], subset));
  });

  it('LEGATE_MODE, redactions and the scripted model refuse what they cannot use', async () => {
    expect(await refusal('invalid_recording_mode', () => resolveMode(undefined, { LEGATE_MODE: 'live' }))).toContain(
      `but it was 'live'`,
    );
    await refusal('invalid_pattern', () => createRedactor([{ pattern: 42 as never }]));
    await refusal('invalid_redaction_path', () => createRedactor([{ path: '..' }]));
    await refusal('invalid_script', () => new ScriptedTransport(42 as never));
  });

  const dir = useTempDir();
  it('recording refuses a run without input', async () => {
    const file = `${dir()}/new.yaml`;
    await refusal('missing_input', () => runTrajectory({ file, agent: () => agent(), mode: 'record' }));
  });
});
