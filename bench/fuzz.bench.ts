import { fuzzInjection, fuzzTool } from 'legate/fuzz';
import { builtModule } from './builtModule.js';
import { placeOrder } from './placeOrder.js';

const { createAssistant } =
  await builtModule<typeof import('../examples/payments/agent.js')>('examples/payments/agent.js');

export async function benchFuzz(): Promise<void> {
  await fuzzTool(placeOrder, { numRuns: 500, seed: 1 }); // warm-up
  const tool = await fuzzTool(placeOrder, { numRuns: 20_000, seed: 2 });
  await fuzzInjection(createAssistant, { numRuns: 50, seed: 1, out: false });
  const injection = await fuzzInjection(createAssistant, { numRuns: 2_000, seed: 3, out: false });
  const format = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log('Fuzzing (generation, binding, checking; one core)');
  const toolRate = format(tool.casesPerSecond).padStart(9);
  const toolTarget = tool.casesPerSecond >= 20_000 ? 'met' : 'NOT met';
  console.log(
    `  fuzzTool, 5-argument tool              ${toolRate} cases/s (${format(tool.cases)} ` +
      `cases; target >= 20,000: ${toolTarget})`,
  );
  const injectionRate = format(injection.casesPerSecond).padStart(9);
  const injectionTarget = injection.casesPerSecond >= 1_000 ? 'met' : 'NOT met';
  console.log(
    `  fuzzInjection, zero-trust assistant    ${injectionRate} runs/s  (${format(injection.cases)} ` +
      `runs; target >= 1,000: ${injectionTarget})`,
  );
  if (tool.failures.length + injection.failures.length > 0)
    throw new Error('the benchmarked targets must have no findings');
}
