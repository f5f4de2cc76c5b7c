import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectionCost, printTable, tableCells } from './harness.js';
import { benchBinder } from './binder.bench.js';
import { benchFuzz } from './fuzz.bench.js';
import { benchGuard } from './guard.bench.js';
import { benchIntercept } from './intercept.bench.js';
import { benchOpenApi } from './openapi.bench.js';
import { benchReplay } from './replay.bench.js';
import { benchReplayWorkers } from './replayWorkers.bench.js';
import { benchReplayMemory } from './replayMemory.bench.js';
import { benchReplayTurns } from './replayTurns.bench.js';
import { benchRunLoop } from './runLoop.bench.js';
import { benchStartup } from './startup.bench.js';
import { benchStreaming } from './streaming.bench.js';

/**
 * Set in a section's own process: the file its summary cells go to. Each section runs in a `node` process of its own,
 * so what one leaves behind (a larger heap, the run loop's code compiled for another transport) is not paid in the
 * next one's rounds: run after the replay section in one process, the run loop's lines cost twice what they cost
 * alone (measured back to back: ScriptedTransport 39.4 against 16.2 µs a turn, the bare loop 22.6 against 11.2).
 */
const CELLS = 'LEGATE_BENCH_CELLS';

// Each section, in the order printed; `npm run bench -- replay intercept` runs only those named.
const sections: [string, () => Promise<void>][] = [
  ['startup', benchStartup],
  ['binder', benchBinder],
  ['guard', benchGuard],
  ['replay', benchReplay],
  ['turns', benchReplayTurns],
  ['memory', benchReplayMemory],
  ['workers', benchReplayWorkers],
  ['intercept', benchIntercept],
  ['streaming', benchStreaming],
  ['loop', benchRunLoop],
  ['fuzz', benchFuzz],
  ['openapi', benchOpenApi],
];
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !sections.some(([section]) => section === name));
if (unknown.length > 0) {
  console.error(
    `npm run bench: no section ${unknown.join(', ')}; the sections: ${sections.map(([n]) => n).join(', ')}`,
  );
  process.exit(2);
}

const cellsFile = process.env[CELLS];
if (cellsFile !== undefined && cellsFile !== '') {
  // A section's own process: run it, and hand its summary cells to the process that started it.
  for (const [name, bench] of sections) if (chosen.includes(name)) await bench();
  writeFileSync(cellsFile, JSON.stringify(tableCells()));
} else {
  // Measured is the built package, as users run it: `legate` resolves through package.json "exports" to dist/.
  const measured = relative(process.cwd(), fileURLToPath(import.meta.resolve('legate')));
  console.log(`legate benchmarks of the built package (${measured}) on Node ${process.version}, ${process.arch}`);
  console.log(
    'Each round ends with a forced collection of the young generation, counted in it ' +
      `(${collectionCost().toFixed(1)} ms now): bench/harness.ts says why not a full one; each section runs in a ` +
      'process of its own (bench/run.ts says why)\n',
  );
  const folder = mkdtempSync(join(tmpdir(), 'legate-bench-cells-'));
  const cells: string[][] = [];
  try {
    for (const [name] of sections) {
      if (chosen.length > 0 && !chosen.includes(name)) continue;
      const file = join(folder, `${name}.json`);
      const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), name], {
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, [CELLS]: file },
      });
      if (run.status !== 0) {
        console.error(`npm run bench: the ${name} section's process exited ${run.status ?? run.signal}.`);
        process.exit(1);
      }
      cells.push(...(JSON.parse(readFileSync(file, 'utf8')) as string[][]));
      console.log('');
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(
    'Summary: CPU time unless the line says otherwise; median (min-max) over rounds; ratio = our median / the ' +
      "anchor's, from the same run (below 1 is cheaper)\n",
  );
  printTable(cells);
}
