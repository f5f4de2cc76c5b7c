import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchBinder } from './binder.bench.js';
import { benchFuzz } from './fuzz.bench.js';
import { benchGuard } from './guard.bench.js';
import { benchIntercept } from './intercept.bench.js';
import { benchOpenApi } from './openapi.bench.js';
import { benchReplay } from './replay.bench.js';
import { benchRunLoop } from './runLoop.bench.js';
import { benchStreaming } from './streaming.bench.js';

// Measured is the built package, as users run it: `legate` resolves through package.json "exports" to dist/.
const measured = relative(process.cwd(), fileURLToPath(import.meta.resolve('legate')));
console.log(`legate benchmarks of the built package (${measured}) on Node ${process.version}, ${process.arch}\n`);
benchBinder();
console.log('');
benchGuard();
console.log('');
await benchReplay();
console.log('');
await benchIntercept();
console.log('');
await benchStreaming();
console.log('');
await benchRunLoop();
console.log('');
await benchFuzz();
console.log('');
await benchOpenApi();
