import { calculatorQuestion, createCalculator, scriptedCalculatorModel } from '../../examples/calculator/agent.js';
import type { CliIo } from '../io.js';
import { renderTimeline } from '../timeline.js';

export const demoHelp = `legate demo

Runs the shipped calculator agent against a scripted model that sends "one" where a whole
number belongs, so you can watch the binder refuse it and the model correct itself. Offline.`;

export async function demo(io: CliIo): Promise<number> {
  const model = scriptedCalculatorModel();
  const result = await createCalculator(model).run(calculatorQuestion);
  model.assertDone();
  io.out(renderTimeline(result, calculatorQuestion, io.paint));
  return 0;
}
