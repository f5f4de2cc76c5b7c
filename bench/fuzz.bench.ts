import { fuzzInjection, fuzzTool, type FuzzReport } from 'legate/fuzz';
import { builtModule } from './builtModule.js';
import { measureEach, report } from './harness.js';
import { placeOrder } from './placeOrder.js';

const { createAssistant } =
  await builtModule<typeof import('../examples/payments/agent.js')>('examples/payments/agent.js');

/** Cases per timed call: each call is a fuzzing run of its own, with the next seed. */
const TOOL_CASES = 1_000;
const INJECTION_RUNS = 100;

/**
 * Fuzzing throughput, in CPU time per case (fuzzTool's and fuzzInjection's own `casesPerSecond` count the wall
 * clock): generation, binding, checking. No anchor runs the same cases; the goals are absolute.
 */
export async function benchFuzz(): Promise<void> {
  let seed = 1;
  const findings: FuzzReport[] = [];
  const kept = (fuzzReport: FuzzReport) => {
    if (fuzzReport.failures.length > 0) findings.push(fuzzReport);
    return fuzzReport;
  };
  const [tool, injection] = await measureEach(
    [
      {
        name: 'fuzzTool, 5-argument tool',
        operation: async () => kept(await fuzzTool(placeOrder, { numRuns: TOOL_CASES, seed: seed++ })),
      },
      {
        name: 'fuzzInjection, zero-trust assistant',
        operation: async () =>
          kept(await fuzzInjection(createAssistant, { numRuns: INJECTION_RUNS, seed: seed++, out: false })),
      },
    ],
    { rounds: 5, roundMs: 1000 },
  );
  if (findings.length > 0) throw new Error('the benchmarked targets must have no findings');
  console.log('Fuzzing, CPU time per case (generation, binding, checking), median (min-max) of 5 rounds');
  const per = (cases: number, unit: string) => ({ unit: `µs/${unit}`, divide: cases, digits: 1 });
  report(
    {
      section: 'fuzz',
      line: `fuzzTool, ${TOOL_CASES} cases per run`,
      ours: tool!,
      scale: per(TOOL_CASES, 'case'),
      goal: { absolute: (median) => median / TOOL_CASES <= 50, label: 'goal >= 20,000 cases/s (<= 50 µs)' },
      note: `${Math.round(TOOL_CASES * tool!.opsPerSecond).toLocaleString('en-US')} cases per CPU second`,
    },
    {
      section: 'fuzz',
      line: `fuzzInjection, ${INJECTION_RUNS} runs per call`,
      ours: injection!,
      scale: per(INJECTION_RUNS, 'run'),
      goal: { absolute: (median) => median / INJECTION_RUNS <= 1000, label: 'goal >= 1,000 runs/s (<= 1,000 µs)' },
      note: `${Math.round(INJECTION_RUNS * injection!.opsPerSecond).toLocaleString('en-US')} runs per CPU second`,
    },
  );
}
