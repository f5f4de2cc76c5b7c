// Preloaded (`node --import`) into a command the memory bench runs: at exit, writes to file descriptor 3 (where the
// bench reads it) what the command's thread still holds after a full collection (heap used, in KB: what it kept of
// the files it replayed), then the process's peak resident memory (all its threads, workers included), in KB.
import { writeSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
process.on('exit', () => {
  gc();
  const kept = Math.round(process.memoryUsage().heapUsed / 1024);
  writeSync(3, `${kept} ${process.resourceUsage().maxRSS}\n`);
});
