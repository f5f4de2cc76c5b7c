import { benchBinder } from './binder.bench.js';
import { benchFuzz } from './fuzz.bench.js';
import { benchGuard } from './guard.bench.js';
import { benchReplay } from './replay.bench.js';
import { benchRunLoop } from './runLoop.bench.js';
import { benchStreaming } from './streaming.bench.js';

console.log(`legate benchmarks on Node ${process.version}, ${process.arch}\n`);
benchBinder();
console.log('');
benchGuard();
console.log('');
await benchReplay();
console.log('');
await benchStreaming();
console.log('');
await benchRunLoop();
console.log('');
await benchFuzz();
