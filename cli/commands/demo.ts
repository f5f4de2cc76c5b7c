import { calculatorQuestion, createCalculator, scriptedCalculatorModel } from '../../examples/calculator/agent.js';
import { RecordingTransport, fromRun } from '../../src/index.js';
import { parseOptions } from '../parseOptions.js';
import type { CliIo } from '../io.js';
import { renderTimeline } from '../renderTimeline.js';

export const demoHelp = `legate demo

Runs the shipped calculator agent against a scripted model that sends "one" where a whole
number belongs, so you can watch the binder refuse it and the model correct itself. Offline.`;

export async function demo(args: string[], io: CliIo): Promise<number> {
  parseOptions({ args, options: {} }); // no options, no arguments: anything else is a usage error
  const model = scriptedCalculatorModel();
  const transport = new RecordingTransport(model);
  const agent = createCalculator(transport);
  const result = await agent.run(calculatorQuestion);
  model.assertDone();
  const trajectory = fromRun({
    name: 'demo',
    agent,
    input: calculatorQuestion,
    result,
    requests: transport.exchanges.map((exchange) => exchange.request),
    tools: agent.tools,
    clock: [],
    recordedAt: new Date(),
    sdkVersion: undefined,
  });
  io.out(renderTimeline(trajectory, io.paint));
  return 0;
}
