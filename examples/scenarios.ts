import { ScriptedTransport, reply, type AgentFactory } from '../src/index.js';
import { createCalculator } from './calculator/agent.js';
import { createOrderDesk } from './orders/agent.js';

/** A scripted conversation the corpus in trajectories/ is recorded from (npm run record:corpus). */
export interface Scenario {
  name: string;
  description: string;
  agent: string;
  factory: AgentFactory;
  input: string;
  /** The scripted model that plays the conversation. */
  model: () => ScriptedTransport;
}

export const scenarios: Scenario[] = [
  {
    name: 'tool-loop',
    description: 'A customer asks about an order; the agent looks it up and answers.',
    agent: 'order_desk',
    factory: createOrderDesk,
    input: 'Where is my order A-1001?',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('lookup_order', { orderId: 'A-1001' }, { text: 'Let me look that up.' }),
        reply.text('Your order A-1001 (a kettle and a tea tin) has shipped.'),
      ]),
  },
  {
    name: 'parallel-tool-calls',
    description: 'Two independent operations asked for in one response run concurrently and are answered in one message.',
    agent: 'calculator',
    factory: createCalculator,
    input: 'What are 12 + 30 and 84 / 2?',
    model: () =>
      new ScriptedTransport([
        reply.toolUses([
          { name: 'add', input: { left: 12, right: 30 } },
          { name: 'divide', input: { dividend: 84, divisor: 2 } },
        ]),
        reply.text('Both are 42.'),
      ]),
  },
  {
    name: 'invalid-argument-corrected',
    description: 'The model sends "one" where a whole number belongs, reads the refusal, and corrects itself.',
    agent: 'calculator',
    factory: createCalculator,
    input: 'What is one plus two?',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('add', { left: 'one', right: 2 }, { text: "I'll add the two numbers." }),
        reply.toolUse('add', { left: 1, right: 2 }, { text: 'The left addend must be a number; retrying.' }),
        reply.text('3'),
      ]),
  },
  {
    name: 'tool-failure',
    description: 'A tool throws; the model is told only the tool and the error class, and explains.',
    agent: 'calculator',
    factory: createCalculator,
    input: 'What is the square root of -4?',
    model: () =>
      new ScriptedTransport([
        reply.toolUse('square_root', { value: -4 }),
        reply.text('The square root of a negative number is not a real number, so I cannot give one.'),
      ]),
  },
  {
    name: 'max-tokens',
    description: 'The model runs out of output tokens mid-answer.',
    agent: 'calculator',
    factory: createCalculator,
    input: 'Explain long division, step by step, in great detail.',
    model: () => new ScriptedTransport([reply.maxTokens('Long division splits a division into a series of easier steps. First, write the dividend')]),
  },
  {
    name: 'refusal',
    description: 'The model declines to continue.',
    agent: 'calculator',
    factory: createCalculator,
    input: 'Compute the exact dosage of this medication for my patient.',
    model: () => new ScriptedTransport([reply.refusal('I cannot help with medication dosing; please ask a pharmacist or physician.')]),
  },
];
