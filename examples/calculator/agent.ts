import { Agent, ScriptedTransport, reply, type Transport } from '../../src/index.js';
import { add, divide, squareRoot } from './tools.js';

/** The calculator agent: give it the live model, a recording, or a script. */
export function createCalculator(transport: Transport): Agent {
  return new Agent({
    name: 'calculator',
    // A small model: the example is cheap to record live (npm run record:live).
    model: 'claude-haiku-5-5',
    system: 'You are a careful calculator. Use the tools for every operation and answer with the result only.',
    tools: [add, divide, squareRoot],
    transport,
    maxTurns: 6,
  });
}

export const calculatorQuestion = 'What is one plus two?';

/**
 * A scripted model that makes the mistake real models make: it sends the word "one" where
 * a whole number belongs, reads the binder's refusal, and corrects itself.
 */
export function scriptedCalculatorModel(): ScriptedTransport {
  return new ScriptedTransport([
    reply.toolUse('add', { left: 'one', right: 2 }, { text: "I'll add the two numbers." }),
    reply.toolUse('add', { left: 1, right: 2 }, { text: 'The left addend must be a number; retrying.' }),
    reply.text('3'),
  ]);
}
