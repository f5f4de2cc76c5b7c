import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditTrajectory, rules, type Rule } from '../../../src/index.js';
import { recordUnguarded, runGuarded, type ScriptedCall } from '../../support/auditedRun.js';
import { useTempDir } from '../../support/tempDir.js';

const tempDir = useTempDir();
const NAMES = ['tool_0', 'tool_1', 'tool_2', 'tool_3'];
const name = fc.constantFrom(...NAMES);

const scenario = fc.record({
  untrusted: fc.subarray(NAMES),
  privileged: fc.subarray(NAMES),
  rules: fc.array(
    fc.oneof(
      fc
        .tuple(name, name)
        .filter(([a, b]) => a !== b)
        .map(([tool, prerequisite]): Rule => rules.require(tool, prerequisite)),
      fc.tuple(name, fc.integer({ min: 1, max: 3 })).map(([tool, max]): Rule => rules.limit(tool, max)),
    ),
    { maxLength: 3 },
  ),
  batches: fc.array(
    fc.array(
      fc.record({
        tool: fc.oneof({ weight: 9, arbitrary: name }, { weight: 1, arbitrary: fc.constant('no_such_tool') }),
        answer: fc.constantFrom('ok' as const, 'ok' as const, 'toolError' as const, 'throws' as const),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    { minLength: 1, maxLength: 5 },
  ),
});

describe('the audit of a recorded run', () => {
  it('finds exactly the calls the live guard blocks when the same tools and rules are declared', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const batches: ScriptedCall[][] = s.batches;
        const trajectory = await recordUnguarded(tempDir(), NAMES, batches);
        const declared = { untrusted: s.untrusted, privileged: s.privileged, rules: s.rules };
        const live = await runGuarded(NAMES, batches, declared);
        const blocked = live.toolCalls
          .filter((call) => call.outcome === 'blocked')
          .map((call) => ({ id: call.id, name: call.name, turn: call.turn, rule: call.rule, source: call.source }));
        const found = auditTrajectory(trajectory, declared).findings.map((f) => ({
          id: f.call.id,
          name: f.call.name,
          turn: f.call.turn,
          rule: f.rule,
          source: f.source?.name,
        }));
        expect(found).toEqual(blocked);
        // The taint source the audit names is the call whose result the live run was tainted by.
        const tainting = auditTrajectory(trajectory, declared).steps.find((step) => step.taints === true);
        expect(tainting?.name).toBe(live.tainted ? live.taintSource : undefined);
      }),
      { numRuns: 150 },
    );
  });
});
