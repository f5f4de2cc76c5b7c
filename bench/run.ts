import { benchBinder } from './binder.bench.js';

console.log(`legate benchmarks on Node ${process.version}, ${process.arch}\n`);
benchBinder();
