// Preloaded (`node --import`) into a command the memory bench runs: at exit, writes the process's peak resident
// memory (all its threads, workers included), in KB, to file descriptor 3, where the bench reads it.
import { writeSync } from 'node:fs';

process.on('exit', () => writeSync(3, `${process.resourceUsage().maxRSS}\n`));
