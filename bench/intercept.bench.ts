import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadTrajectory } from 'legate';
import { figure, measureEach, MICROSECONDS, report, type Measurement } from './harness.js';
import { prepare, replayThroughBareMsw, replayThroughInterception } from './intercept/interceptScenario.js';

/**
 * Replay at the HTTP boundary beside bare msw: real two-turn tool conversations (bench/intercept/
 * interceptScenario.ts), recorded once through interceptAnthropic at bench start, then asked for by the
 * same hand-written tool loop over the real SDK and answered (a) by `interceptAnthropic({ mode: 'replay' })`,
 * which reads the file and checks every request before it answers, and (b) by msw handlers serving the
 * same responses in order, as a team writes them by hand. Both start and close their msw server and read
 * their recording per conversation (why: see the scenario). The figures are CPU time per conversation; the
 * part of the first spent reading the trajectory file (YAML, then the format's check) is printed beneath.
 * test/bench/intercept.test.ts checks that both serve the whole conversation and that the loop ends as it
 * did when recorded.
 */
export async function benchIntercept(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'legate-bench-intercept-'));
  try {
    const prepared = await prepare(dir);
    const measured = await measureEach(
      prepared.flatMap((conversation) => [
        { name: 'interceptAnthropic replay', operation: () => replayThroughInterception(conversation) },
        { name: 'bare msw handlers', operation: () => replayThroughBareMsw(conversation) },
        // Part of the first: reading and checking the trajectory file, which interceptAnthropic does when called.
        { name: 'of which reading its YAML file', operation: async () => loadTrajectory(conversation.file) },
      ]),
    );
    console.log(
      `Replay through interception, CPU time per conversation: ${prepared.length} real two-turn tool conversations, ` +
        'the real SDK, no network; median (min-max) of 7 alternating rounds',
    );
    let ratioProduct = 1;
    for (const [i, { conversation }] of prepared.entries()) {
      const [ours, anchor, read] = measured.slice(3 * i, 3 * i + 3) as [Measurement, Measurement, Measurement];
      ratioProduct *= ours.median / anchor.median;
      report({
        section: 'intercept',
        line: conversation.name,
        ours,
        anchor,
        scale: { ...MICROSECONDS, digits: 0 },
        note: `of which reading its YAML file: ${figure(read, { ...MICROSECONDS, digits: 0 })}`,
      });
    }
    const overall = ratioProduct ** (1 / prepared.length);
    console.log(
      `  ratio, geometric mean ${overall.toFixed(2)}x  (target <= 1.2x: ${overall <= 1.2 ? 'met' : 'NOT met'})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
