// Reads a test run's output and fails unless its closing line, `N passed, N failed` (test/support/summaryReporter.ts),
// reports tests that ran and none that failed. CI runs it on `npm test`'s output, so a failure fails the build even
// when something in the test process (an exit hook of a dependency) turned the exit code into 0.
//
//   npx tsx scripts/closing-line.ts <log file>
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const CLOSING = /^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;

export type ClosingVerdict = { ok: true; passed: number; failed: number } | { ok: false; problem: string };

/** The verdict on a run's output: `ok` with the counts, or why not. The last closing line counts: a run prints one. */
export function closingVerdict(output: string): ClosingVerdict {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are what is removed
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split(/\r?\n/);
  const closing = lines
    .map((line) => CLOSING.exec(line.trim()))
    .filter((match) => match !== null)
    .at(-1);
  if (closing === undefined) {
    return { ok: false, problem: "the test run printed no closing 'N passed, N failed' line: it did not finish." };
  }
  const passed = Number(closing[1]);
  const failed = Number(closing[2]);
  if (failed > 0) return { ok: false, problem: `the test run's closing line reports ${failed} failed: ${closing[0]}` };
  if (passed === 0) return { ok: false, problem: `the test run's closing line reports no test passed: ${closing[0]}` };
  return { ok: true, passed, failed };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (file === undefined) {
    console.error('Usage: npx tsx scripts/closing-line.ts <log file of a test run>');
    process.exit(2);
  }
  const verdict = closingVerdict(readFileSync(file, 'utf8'));
  if (!verdict.ok) {
    console.error(`closing-line: ${verdict.problem}`);
    process.exit(1);
  }
  console.log(`closing-line: ${verdict.passed} passed, none failed.`);
}
