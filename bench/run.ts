import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectionCost, printTable } from './harness.js';
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

// Measured is the built package, as users run it: `legate` resolves through package.json "exports" to dist/.
const measured = relative(process.cwd(), fileURLToPath(import.meta.resolve('legate')));
console.log(`legate benchmarks of the built package (${measured}) on Node ${process.version}, ${process.arch}`);
console.log(
  'Each round ends with a forced collection of the young generation, counted in it ' +
    `(${collectionCost().toFixed(1)} ms now): bench/harness.ts says why not a full one\n`,
);
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
for (const [name, bench] of sections) {
  if (chosen.length > 0 && !chosen.includes(name)) continue;
  await bench();
  console.log('');
}
console.log(
  'Summary: CPU time unless the line says otherwise; median (min-max) over rounds; ratio = our median / the ' +
    "anchor's, from the same run (below 1 is cheaper)\n",
);
printTable();
