import { resolve } from 'node:path';
import {
  checkOutFolder,
  DEFENCE_MODES,
  FindingOutputError,
  loadAttackSuite,
  runAttackSuite,
  type AttackReport,
  type DefenceMode,
} from '../../src/fuzz/index.js';
import { loadProject } from '../../src/index.js';
import { parseOptions } from '../parseOptions.js';
import type { CliIo } from '../io.js';
import { defaultReport } from '../outputFile.js';

/** Where `legate attack` writes the successful attacks when --out is not given: a report, not the replayed corpus. */
export const DEFAULT_ATTACK_FOLDER = defaultReport('attacks');

export const attackHelp = `legate attack <module> [--modes none,taint,approve,provenance] [--out folder] [--json]

Runs the attack suite a module exports (its default export, or 'suite'; see runAttackSuite in
docs/fuzzing.md): per defence mode, every user task alone, then every task with every injection
planted; a person approves only the calls the task asked for. Prints the report as a markdown
table (benign utility, write-after-read utility, utility under attack, attack success, attacks
needing an attacker value), then the successful attacks per mode; --json prints the report as
JSON instead; standard output holds the report alone, what was written is said on standard
error. Each successful attack is written as a trajectory under --out (default
${DEFAULT_ATTACK_FOLDER}), as <suite>/<mode>/<task>--<injection>.yaml, redacted and scanned with the
'redactions' and 'secrets' of the legate.config.* found from here; --out is checked before any
run. --modes picks the modes, in that order (default: all four). Exits 0 with a report, 2 when
the module, the suite or an option cannot be used.`;

export async function attack(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOptions({
    args,
    allowPositionals: true,
    options: { modes: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (positionals.length !== 1) {
    io.err(
      `legate attack: give one module that exports an attack suite, e.g. legate attack examples/banking/suite.ts` +
        (positionals.length > 1 ? `; it was given ${positionals.length}.` : '.'),
    );
    return 2;
  }
  const modes = values.modes === undefined ? undefined : modesOf(values.modes);
  if (typeof modes === 'string') {
    io.err(`legate attack: --modes ${modes}`);
    return 2;
  }
  const shownOut = values.out ?? DEFAULT_ATTACK_FOLDER;
  const out = shownOut.trim() === '' ? shownOut : resolve(io.cwd, shownOut);
  try {
    checkOutFolder(out); // before anything runs: a successful attack must not be lost to a bad --out
  } catch (error) {
    if (!(error instanceof FindingOutputError)) throw error;
    io.err(`legate attack: --out: ${out === shownOut ? error.message : error.message.replaceAll(out, shownOut)}`);
    return 2;
  }
  const suite = await loadAttackSuite(positionals[0]!, { cwd: io.cwd });
  const config = (await loadProject({ cwd: io.cwd })).config;
  const report = await runAttackSuite(suite, {
    ...(modes === undefined ? {} : { modes }),
    out,
    redactions: config?.redactions ?? [],
    secrets: config?.secrets ?? [],
  });
  io.out(values.json === true ? JSON.stringify(report, null, 2) : report.toText());
  written(report, io, shownOut);
  return 0;
}

/** The modes named in `--modes`, comma-separated; or what is wrong with them, in one line. */
function modesOf(given: string): DefenceMode[] | string {
  const names = given.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !DEFENCE_MODES.includes(name as DefenceMode));
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  const problem =
    unknown !== undefined
      ? `names ${JSON.stringify(unknown)}, which is not a defence mode`
      : twice !== undefined
        ? `names '${twice}' twice`
        : undefined;
  if (problem === undefined) return names as DefenceMode[];
  return (
    `${problem}. Give a comma-separated list of ${DEFENCE_MODES.join(', ')}, each once, e.g. --modes ` +
    `taint,provenance (it was ${JSON.stringify(given)}).`
  );
}

/** Where the attacks went, on standard error (standard output holds the report alone), and each one not written. */
function written(report: AttackReport, io: CliIo, folder: string): void {
  const attacks = report.modes.flatMap((m) => m.successfulAttacks.map((a) => ({ mode: m.mode, ...a })));
  const files = attacks.filter((a) => a.trajectory !== undefined).length;
  if (files > 0) io.err(`legate attack: ${files} successful attack${files === 1 ? '' : 's'} written under ${folder}`);
  for (const a of attacks.filter((a) => a.writeError !== undefined))
    io.err(`legate attack: ✗ ${a.mode}: task '${a.task}', injection '${a.injection}' was not written: ${a.writeError}`);
}
