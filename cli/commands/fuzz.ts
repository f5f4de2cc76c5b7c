import { relative, resolve } from 'node:path';
import { parseOptions } from '../parseOptions.js';
import {
  checkOutFolder,
  findFuzzTargets,
  FindingOutputError,
  fuzzInjection,
  fuzzTool,
  type FuzzFailure,
  type FuzzReport,
} from '../../src/fuzz/index.js';
import { loadProject, type LegateConfig } from '../../src/index.js';
import { quoteValue } from '../../src/json/describeValue.js';
import { describeUnexpected } from '../describeError.js';
import type { CliIo } from '../io.js';

export const fuzzHelp = `legate fuzz <module...> [--runs N] [--seed N] [--out folder] [--config file]

Fuzzes what the modules export: fuzzTool over every tool (exported, or a tool of an exported
agent), and fuzzInjection over every agent factory (an 'agents' export, or a config's default
export, as legate.config.ts has). Prints a summary table; exits 1 on any finding. A failing
injection case is written as a trajectory directly inside --out (default trajectories/fuzz),
named after the agent (made a safe file name), which 'legate replay' then runs as a regression
test. --out is checked before fuzzing starts (exit 2 if it is empty or a file). Findings are
redacted and scanned with the 'redactions' and 'secrets' of every config given, and of the
project's config (--config, else the legate.config.* legate replay uses, found from here); a
finding that still holds a secret is not written, and is printed on standard error instead.`;

export async function fuzz(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: {
      runs: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      config: { type: 'string' },
    },
  });
  if (positionals.length === 0) {
    io.err(`legate fuzz: give a module to fuzz, e.g. legate fuzz legate.config.ts`);
    return 2;
  }
  const runs = wholeNumber('--runs', values.runs, 1);
  const seed = wholeNumber('--seed', values.seed);
  if (typeof runs === 'string' || typeof seed === 'string') {
    io.err(`legate fuzz: ${typeof runs === 'string' ? runs : seed}`);
    return 2;
  }
  const numRuns = runs ?? 500;
  // The folder is checked before anything is fuzzed: a finding must never be lost to a bad --out.
  const out =
    values.out === undefined
      ? resolve(io.cwd, 'trajectories', 'fuzz')
      : values.out.trim() === ''
        ? values.out
        : resolve(io.cwd, values.out);
  try {
    checkOutFolder(out);
  } catch (error) {
    if (!(error instanceof FindingOutputError)) throw error;
    const shown = values.out ?? 'trajectories/fuzz'; // the message names the folder as the user wrote it
    io.err(`legate fuzz: --out: ${out === shown ? error.message : error.message.replaceAll(out, shown)}`);
    return 2;
  }
  const modules = positionals.map((p) => resolve(io.cwd, p));
  const project = await projectConfig(values.config, io.cwd, modules);
  const { tools, agents, redactions, secrets } = await findFuzzTargets(modules);
  // Every config in sight declares secrets: a finding honours the project's and the modules'.
  const save = {
    redactions: [...(project?.redactions ?? []), ...redactions],
    secrets: [...(project?.secrets ?? []), ...secrets],
  };
  const injection = {
    numRuns: Math.max(1, Math.floor(numRuns / 5)),
    ...(seed === undefined ? {} : { seed }),
    out,
    ...save,
  };
  const targets = [
    ...tools.map((tool) => ({
      label: tool.name,
      run: () => fuzzTool(tool, { numRuns, ...(seed === undefined ? {} : { seed }) }),
    })),
    ...[...agents].map(([name, factory]) => ({ label: name, run: () => fuzzInjection(factory, injection) })),
  ];
  const reports: FuzzReport[] = [];
  const crashed: string[] = [];
  for (const [i, target] of targets.entries()) {
    progress(io, i, targets.length, target.label);
    try {
      reports.push(await target.run());
    } catch (error) {
      // One target that cannot be fuzzed (a factory that throws) costs neither the others nor their findings.
      crashed.push(`legate fuzz: ✗ ${target.label}: could not be fuzzed: ${describeUnexpected(error)}`);
    }
  }
  progress(io, targets.length, targets.length, 'done');
  io.out(table(reports));
  for (const line of crashed) io.err(line);
  for (const report of reports) {
    for (const failure of report.failures) {
      io.out(`\n${io.paint('red', `✗ ${report.target}`)}: ${failure.message}`);
      io.out(`  property: ${failure.property}`);
      io.out(`  reproduce: seed ${failure.seed}${failure.path === undefined ? '' : `, path ${failure.path}`}`);
      io.out(`  shrunk counterexample: ${JSON.stringify(failure.counterexample)}`);
      if (failure.trajectory !== undefined) {
        const shown = relative(io.cwd, failure.trajectory) || failure.trajectory;
        io.out(`  written to ${shown}; 'legate replay ${shown}' checks the fix`);
      }
      if (failure.writeError !== undefined) unwritten(io, report.target, failure);
    }
  }
  return crashed.length > 0 || reports.some((r) => r.failures.length > 0) ? 1 : 0;
}

/**
 * A whole number option, written in digits (`-` only where `min` allows it): the number, undefined when not given,
 * or the one-line problem.
 */
function wholeNumber(option: string, given: string | undefined, min?: number): number | undefined | string {
  if (given === undefined) return undefined;
  const number = /^-?\d+$/.test(given) ? Number(given) : Number.NaN;
  if (Number.isSafeInteger(number) && (min === undefined || number >= min)) return number;
  const expected = min === undefined ? 'a whole number' : `a whole number of at least ${min}`;
  const example = `${option} ${min ?? 42}`;
  return `${option} must be ${expected}, but it was ${quoteValue(given)}. Write it in digits, e.g. ${example}.`;
}

/**
 * A finding whose trajectory could not be written: everything needed to reproduce it, on standard error, in one line.
 */
function unwritten(io: CliIo, target: string, failure: FuzzFailure): void {
  io.out(`  not written: ${failure.writeError}`);
  io.err(
    `legate fuzz: ✗ ${target}: the finding was not written: ${failure.writeError}; ` +
      `reproduce with seed ${failure.seed}${failure.path === undefined ? '' : `, path ${failure.path}`}; ` +
      `shrunk counterexample: ${JSON.stringify(failure.counterexample)}`,
  );
}

/**
 * The project's config (--config, else the legate.config.* loadProject finds from cwd, if any),
 * unless it was found rather than named and is among the modules fuzzed (they are read anyway).
 */
async function projectConfig(
  explicit: string | undefined,
  cwd: string,
  modules: string[],
): Promise<LegateConfig | undefined> {
  const project = await loadProject({ cwd, ...(explicit === undefined ? {} : { config: explicit }) });
  const fuzzed = explicit === undefined && project.configFile !== undefined && modules.includes(project.configFile);
  return fuzzed ? undefined : project.config;
}

function progress(io: CliIo, done: number, total: number, label: string): void {
  if (!io.interactive) return;
  const width = 24;
  const filled = Math.round((done / Math.max(total, 1)) * width);
  io.status(`[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label}`);
}

function table(reports: FuzzReport[]): string {
  const rows = reports.map((r) => [
    r.target,
    r.kind,
    String(r.cases),
    String(r.failures.length),
    Math.round(r.casesPerSecond).toLocaleString('en-US'),
  ]);
  const header = ['target', 'kind', 'cases', 'failures', 'cases/s'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i >= 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
  const failures = reports.reduce((sum, r) => sum + r.failures.length, 0);
  const cases = reports.reduce((sum, r) => sum + r.cases, 0);
  return [
    line(header),
    ...rows.map(line),
    '',
    `${reports.length} targets, ${cases} cases: ` +
      `${failures === 0 ? 'no findings' : `${failures} finding${failures === 1 ? '' : 's'}`}`,
  ].join('\n');
}
