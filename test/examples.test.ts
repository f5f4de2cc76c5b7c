import { describe, expect, it, vi } from 'vitest';
import { add } from '../examples/calculator/tools.js';
import { calculatorQuestion, createCalculator, scriptedCalculatorModel } from '../examples/calculator/agent.js';
import type { ToolResultBlock, UserMessage } from '../src/index.js';

describe('the shipped calculator example', () => {
  it('recovers from the binder refusing "one" for an integer, without the tool ever seeing it', async () => {
    const run = vi.spyOn(add, 'run');
    const model = scriptedCalculatorModel();
    const result = await createCalculator(model).run(calculatorQuestion);

    const refusal = (result.messages[2] as UserMessage).content as ToolResultBlock[];
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toMatchObject({ is_error: true });
    expect(refusal[0]!.content).toContain(`'left'`);
    expect(refusal[0]!.content).toContain('a whole number');
    expect(refusal[0]!.content).toContain('the string "one"');
    expect(run).toHaveBeenCalledTimes(1);
    expect(run.mock.calls[0]![0]).toEqual({ left: 1, right: 2 });
    expect(result).toMatchObject({ text: '3', stopReason: 'end_turn', turns: 3 });
    model.assertDone();
    run.mockRestore();
  });
});
