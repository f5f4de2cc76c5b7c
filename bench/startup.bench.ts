import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MILLISECONDS, report, summarise } from './harness.js';
import { prepareReplayProject, runSubject, startupSubjects, type StartupSubject } from './startup/startupScenario.js';

/** Rounds per subject, alternating between them; the median of each is reported. */
const ROUNDS = 9;

/**
 * What starting costs, as users start it: the built command and the built package, each in a process of its own
 * (bench/startup/startupScenario.ts), measured as the child's CPU time (user and system), not the wall clock of a
 * shared machine. The subjects alternate in every round, so a slow moment falls on all of them alike; each is run
 * once first, untimed, so none pays for a cold file cache. Prints each one's median beside its anchor's, with the
 * ratio and its goal: `legate --version` at most 1.2x `vitest --version`; `import('legate')` at most 0.6x
 * `import('@anthropic-ai/sdk')`; a one-file `legate replay` at most 2x `vitest --version`.
 * test/bench/startup.test.ts checks that every subject does its job.
 */
export async function benchStartup(): Promise<void> {
  const root = resolve('.');
  const project = mkdtempSync(join(tmpdir(), 'legate-bench-startup-'));
  try {
    prepareReplayProject(root, project);
    const subjects = startupSubjects(root, project);
    const all = Object.values(subjects);
    const times = new Map<StartupSubject, number[]>(all.map((subject) => [subject, []]));
    for (const subject of all) measured(subject);
    for (let round = 0; round < ROUNDS; round++) {
      for (const subject of all) times.get(subject)!.push(measured(subject));
    }
    const of = (subject: StartupSubject) => summarise(subject.name, times.get(subject)!);
    const ms = { ...MILLISECONDS, digits: 0 };
    const row = (line: string, ours: StartupSubject, anchor: StartupSubject, most: number) => ({
      section: 'startup',
      line,
      ours: of(ours),
      anchor: of(anchor),
      scale: ms,
      goal: { most, label: `goal <= ${most}x` },
    });
    console.log(
      `Startup: CPU time of each child process (user + system), median (min-max) of ${ROUNDS} alternating rounds, ` +
        'the built package',
    );
    report(
      row("the command's start", subjects.legateVersion, subjects.vitestVersion, 1.2),
      row('importing the package', subjects.importLegate, subjects.importSdk, 0.6),
      row('a one-file replay, whole command', subjects.replayOne, subjects.vitestVersion, 2),
    );
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

/** One run's CPU time, in microseconds; a run that did not do its job is not a measurement, and stops the bench. */
function measured(subject: StartupSubject): number {
  const run = runSubject(subject);
  if (run.status !== 0 || !subject.prints.test(run.stdout)) {
    throw new Error(`${subject.name} exited ${run.status}, printing ${JSON.stringify(run.stdout)}: ${run.stderr}`);
  }
  return run.cpuMs * 1000;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await benchStartup();
