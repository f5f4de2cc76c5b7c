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

/**
 * Asynchronous operations (a whole agent run, a streamed response) measured side by side: each is
 * warmed up, then the rounds alternate between them, so a slow moment of the machine falls on all of
 * them alike. What is counted is this process's CPU time (user and system, all its threads), not the
 * wall clock: the work is all in-process, and on a machine shared with other work the wall clock
 * counts their time too. Returns each one's median rate, in the order given.
 */
export async function measureEach(
  operations: { name: string; operation: () => Promise<unknown> }[],
  options: { rounds?: number; roundMs?: number } = {},
): Promise<Measurement[]> {
  const rounds = options.rounds ?? 7;
  const roundMs = options.roundMs ?? 500;
  for (const { operation } of operations) await runForAsync(operation, 300);
  const rates: number[][] = operations.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, { operation }] of operations.entries()) rates[i]!.push(await runForAsync(operation, roundMs));
  }
  return operations.map(({ name }, i) => {
    const sorted = rates[i]!.sort((a, b) => a - b);
    return { name, opsPerSecond: sorted[Math.floor(sorted.length / 2)]! };
  });
}

/** Runs the operation, one at a time, until it has used `ms` of CPU time; returns operations per CPU second. */
async function runForAsync(operation: () => Promise<unknown>, ms: number): Promise<number> {
  let done = 0;
  const start = process.cpuUsage();
  let used = 0;
  while (used < ms * 1000) {
    if (await operation()) sink++;
    done++;
    const { user, system } = process.cpuUsage(start);
    used = user + system;
  }
  return done / (used / 1e6);
}
