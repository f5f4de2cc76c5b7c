import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The bench's timing loop. Every figure is CPU time (`process.cpuUsage()`, user + system), not the wall clock: on a
 * machine shared with other work the wall clock counts that work too. Node 20 has no per-thread CPU clock, so what is
 * counted is the whole process's: the thread doing the work, and the V8 helper threads (concurrent marking, the
 * optimising compiler) working for it; the bench runs nothing else meanwhile.
 *
 * Garbage is charged to the round that made it: each round ends with a forced collection of the young generation,
 * counted in it, that collects the short-lived garbage the round left, so the next round starts clean (one
 * uncounted before the first round clears what the warm-ups left). What outlives a young collection and dies later
 * is collected by the major collections V8 starts when it decides, charged to the round they fall in: the replay
 * line is also measured with each side in a process of its own, and prints how far the two agree. Why not a forced
 * full collection per round: on this bench's replay it made the work after it, not just the collection, cost 1.4-2x
 * (V8's heap sizing restarts from the collection), against a young collection's no measurable change.
 * Lines measured side by side alternate round by round, so a slow moment of the machine falls on all of them alike;
 * each is reported as its median over the rounds and its spread, the fastest and the slowest round (min-max).
 */
export interface Measurement {
  name: string;
  /** CPU microseconds per operation, one figure per round, in the order measured. */
  rounds: number[];
  /** The median round's CPU microseconds per operation, and the fastest and slowest round's. */
  median: number;
  min: number;
  max: number;
  /** Operations per CPU second at the median: 1e6 / median. */
  opsPerSecond: number;
}

let sink = 0;

/** V8's collector, exposed without a command-line flag (`--expose-gc` works too). */
const exposed: (options?: { type?: 'major' | 'minor' }) => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();

/** A collection of the young generation: the short-lived garbage a round leaves (see the header). */
const gc = () => exposed({ type: 'minor' });

/** This process's CPU time since `start` (user + system), in microseconds. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return user + system;
}

/** One forced young collection's CPU cost on the heap as it is now, in milliseconds: what each round counts once. */
export function collectionCost(): number {
  const start = process.cpuUsage();
  gc();
  return cpuSince(start) / 1000;
}

/** A measurement from its rounds' costs (CPU microseconds per operation). */
export function summarise(name: string, rounds: number[]): Measurement {
  const sorted = [...rounds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return { name, rounds, median, min: sorted[0]!, max: sorted.at(-1)!, opsPerSecond: 1e6 / median };
}

type Operation = () => unknown;

/** Runs the operation `count` times; awaits only what returns a promise, so a synchronous one pays no microtask. */
async function runBatch(operation: Operation, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    let result = operation();
    if (result instanceof Promise) result = await result;
    if (result) sink++;
  }
}

/**
 * One round: batches until `ms` of CPU time is used, then a collection of what they left, counted.
 * Returns CPU microseconds per operation.
 */
async function round(operation: Operation, batch: number, ms: number): Promise<number> {
  const start = process.cpuUsage();
  let done = 0;
  while (cpuSince(start) < ms * 1000) {
    await runBatch(operation, batch);
    done += batch;
  }
  gc();
  return cpuSince(start) / done;
}

/**
 * Operations measured side by side: each is warmed up (by default for two rounds' CPU time, at least 300 ms: a
 * replay's many functions take thousands of calls to reach the optimising compiler, and with 300 ms of warm-up its
 * first rounds cost twice the later ones) and given a batch size of about a millisecond's work (reading the clock
 * costs about a microsecond), then the rounds alternate between them. Returns each one's measurement, in order.
 */
export async function measureEach(
  operations: { name: string; operation: Operation }[],
  options: { rounds?: number; roundMs?: number; warmupMs?: number } = {},
): Promise<Measurement[]> {
  const rounds = options.rounds ?? 7;
  const roundMs = options.roundMs ?? 500;
  const warmupMs = options.warmupMs ?? Math.max(300, 2 * roundMs);
  const batches: number[] = [];
  for (const { operation } of operations) {
    const start = process.cpuUsage();
    let done = 0;
    while (cpuSince(start) < warmupMs * 1000 || done === 0) {
      await runBatch(operation, 1);
      done++;
    }
    batches.push(Math.max(1, Math.round(done / (cpuSince(start) / 1000))));
  }
  const costs: number[][] = operations.map(() => []);
  gc();
  for (let r = 0; r < rounds; r++) {
    for (const [i, { operation }] of operations.entries()) costs[i]!.push(await round(operation, batches[i]!, roundMs));
  }
  if (sink < 0) throw new Error('unreachable: the sink keeps results live');
  return operations.map(({ name }, i) => summarise(name, costs[i]!));
}

/** One measurement's figure in a unit: `divide` turns CPU microseconds per operation into it (per turn, per ms). */
export interface Scale {
  unit: string;
  divide: number;
  digits: number;
}

export const MICROSECONDS: Scale = { unit: 'µs', divide: 1, digits: 1 };
export const NANOSECONDS: Scale = { unit: 'ns', divide: 1e-3, digits: 0 };
export const MILLISECONDS: Scale = { unit: 'ms', divide: 1000, digits: 2 };

/** `median (min-max) unit`, the way every line is printed. */
export function figure(m: Measurement, scale: Scale): string {
  const f = (n: number) => (n / scale.divide).toFixed(scale.digits);
  return `${f(m.median)} (${f(m.min)}-${f(m.max)}) ${scale.unit}`;
}

/**
 * A line of the bench's table: our measurement, its anchor's from the same run, the ratio of their medians (our
 * cost over the anchor's: below 1 is cheaper), and the goal on that ratio when there is one.
 */
interface Row {
  section: string;
  line: string;
  ours: Measurement;
  anchor?: Measurement;
  scale: Scale;
  /** The highest ratio (our cost / the anchor's) that meets the goal; or an absolute goal on our median. */
  goal?: { most: number; label: string } | { absolute: (median: number) => boolean; label: string };
  note?: string;
}

const rows: Row[] = [];

export const costRatio = (row: Pick<Row, 'ours' | 'anchor'>) =>
  row.anchor === undefined ? undefined : row.ours.median / row.anchor.median;

function verdict(row: Row): string {
  if (row.goal === undefined) return '';
  const ratio = costRatio(row);
  const met = 'most' in row.goal ? ratio !== undefined && ratio <= row.goal.most : row.goal.absolute(row.ours.median);
  return `${row.goal.label}: ${met ? 'met' : 'NOT met'}`;
}

/** Prints a section's rows as it finishes, and keeps them for the summary table that ends the bench. */
export function report(...added: Row[]): void {
  for (const row of added) {
    rows.push(row);
    const ratio = costRatio(row);
    console.log(`  ${row.line}`);
    console.log(`    ${row.ours.name.padEnd(44)} ${figure(row.ours, row.scale)}`);
    if (row.anchor !== undefined) console.log(`    ${row.anchor.name.padEnd(44)} ${figure(row.anchor, row.scale)}`);
    if (ratio !== undefined) {
      const goal = verdict(row);
      console.log(`    ratio ${ratio.toFixed(2)}x the anchor's cost${goal === '' ? '' : `  (${goal})`}`);
    } else if (row.goal !== undefined) console.log(`    ${verdict(row)}`);
    if (row.note !== undefined) console.log(`    ${row.note}`);
  }
}

/** The summary table's cells of every line reported so far: the line, ours, the anchor, the ratio, the goal. */
export function tableCells(): string[][] {
  return rows.map((row) => {
    const ratio = costRatio(row);
    return [
      `${row.section}: ${row.line}`,
      figure(row.ours, row.scale),
      row.anchor === undefined ? '-' : `${figure(row.anchor, row.scale)} ${row.anchor.name}`,
      ratio === undefined ? '-' : `${ratio.toFixed(2)}x`,
      verdict(row) || '-',
    ];
  });
}

/** The summary: the lines' cells (tableCells, from each section's process), ours and its anchor, ratio and goal. */
export function printTable(cells: string[][]): void {
  const header = ['line', 'ours: median (min-max)', 'anchor: median (min-max)', 'ratio', 'goal'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const print = (c: string[]) => console.log(`| ${c.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`);
  print(header);
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) print(c);
}
