import { createAssistant } from '../examples/payments/agent.js';
import { defineTool } from '../src/index.js';
import { fuzzInjection, fuzzTool } from '../src/fuzz/index.js';

/** The same 5-argument tool the binder benchmark uses. */
const placeOrder = defineTool({
  name: 'place_order',
  description: 'Places an order.',
  input: {
    type: 'object',
    properties: {
      customer: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
      amount: { type: 'number', exclusiveMinimum: 0, maximum: 10000 },
      quantity: { type: 'integer', minimum: 1, maximum: 100 },
      currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] },
      tags: { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 5 },
    },
    required: ['customer', 'amount', 'quantity', 'currency'],
  },
  run: () => 'ok',
});

export async function benchFuzz(): Promise<void> {
  await fuzzTool(placeOrder, { numRuns: 500, seed: 1 }); // warm-up
  const tool = await fuzzTool(placeOrder, { numRuns: 20_000, seed: 2 });
  await fuzzInjection(createAssistant, { numRuns: 50, seed: 1, out: false });
  const injection = await fuzzInjection(createAssistant, { numRuns: 2_000, seed: 3, out: false });
  const format = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log('Fuzzing (generation, binding, checking; one core)');
  console.log(`  fuzzTool, 5-argument tool              ${format(tool.casesPerSecond).padStart(9)} cases/s (${format(tool.cases)} cases; target >= 20,000: ${tool.casesPerSecond >= 20_000 ? 'met' : 'NOT met'})`);
  console.log(`  fuzzInjection, zero-trust assistant    ${format(injection.casesPerSecond).padStart(9)} runs/s  (${format(injection.cases)} runs; target >= 1,000: ${injection.casesPerSecond >= 1_000 ? 'met' : 'NOT met'})`);
  if (tool.failures.length + injection.failures.length > 0) throw new Error('the benchmarked targets must have no findings');
}
