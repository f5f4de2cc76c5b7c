/**
 * A small, honest timing loop: warm up, then run rounds of a fixed duration and report the
 * median rate. Results feed a sink so the work cannot be optimised away.
 */
export interface Measurement {
  name: string;
  opsPerSecond: number;
}

let sink = 0;

export function measure(
  name: string,
  operation: () => unknown,
  options: { rounds?: number; roundMs?: number } = {},
): Measurement {
  const rounds = options.rounds ?? 5;
  const roundMs = options.roundMs ?? 400;
  runFor(operation, 200); // warm-up: let the JIT settle before timing
  const rates: number[] = [];
  for (let i = 0; i < rounds; i++) rates.push(runFor(operation, roundMs));
  rates.sort((a, b) => a - b);
  return { name, opsPerSecond: rates[Math.floor(rates.length / 2)]! };
}

/** Runs the operation in batches until the time is up; returns operations per second. */
function runFor(operation: () => unknown, ms: number): number {
  const batch = 1000;
  let done = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(ms) * 1_000_000n;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < batch; i++) if (operation()) sink++;
    done += batch;
    now = process.hrtime.bigint();
  }
  return done / (Number(now - start) / 1e9);
}

const format = (n: number) => Math.round(n).toLocaleString('en-US');

/** Prints our figure beside the anchor's, from the same run, as a ratio. */
export function printComparison(
  title: string,
  ours: Measurement,
  anchor: Measurement,
  target?: { ratio: number; label: string },
): void {
  const ratio = ours.opsPerSecond / anchor.opsPerSecond;
  const verdict =
    target === undefined ? '' : `  (target ${target.label}: ${ratio >= target.ratio ? 'met' : 'NOT met'})`;
  console.log(`${title}`);
  console.log(`  ${ours.name.padEnd(34)} ${format(ours.opsPerSecond).padStart(14)} ops/s`);
  console.log(`  ${anchor.name.padEnd(34)} ${format(anchor.opsPerSecond).padStart(14)} ops/s`);
  console.log(`  ratio ${ratio.toFixed(2)}x${verdict}`);
  console.log(`  (sink ${sink > 0 ? 'live' : 'empty'})`);
}
