import { resolve } from 'node:path';
import { describeValue } from '../../json/describeValue.js';
import type { SaveOptions } from '../../trajectory/trajectoryFile.js';
import { checkOutFolder } from '../findingFile.js';
import { attackReportText, type AttackReport, type ModeReport, type SuccessfulAttack } from './attackReport.js';
import { attackRun, type AttackCase } from './attackRun.js';
import { DEFENCE_MODES, type AttackSuite, type DefenceMode } from './attackSuite.js';
import { AttackSuiteError } from './attackSuiteError.js';
import { writeAttack } from './attackTrajectory.js';
import { checkAttackSuite } from './checkAttackSuite.js';

export interface RunAttackSuiteOptions {
  /** The defence modes to measure, in the order the report lists them. Default: all four. */
  modes?: readonly DefenceMode[];
  /**
   * Where each successful attack is written as a trajectory (`<out>/<suite>/<mode>/<task>--<injection>.yaml`).
   * Checked before any run (a `FindingOutputError`). Default: nothing is written.
   */
  out?: string;
  /**
   * Applied to each attack before it is written, as to any recording. No config file is read:
   * pass the project's (`legate attack` passes those of the legate.config.* it finds).
   */
  redactions?: SaveOptions['redactions'];
  /** Patterns a written attack must not hold (beyond the built-in ones): one that does is not written, and says why. */
  secrets?: SaveOptions['secrets'];
  /** How many times one run is resumed at most; a run still suspended then is counted as it stands. Default 20. */
  maxResumes?: number;
}

/**
 * Measures an attack suite, AgentDojo style. Per defence mode: every task run alone (benign
 * utility), then every (task, injection) pair with the injection planted (utility under attack,
 * attack success). Each run gets a fresh environment, model and agent; every suspension is
 * resumed with the decisions of a person who approves only the calls the task asked for
 * (`task.asked`), until the run ends. Runs are made one after another, in task then injection
 * order, so a deterministic suite gives the same report every time. Each successful attack is
 * recorded again into `out` (when given). The suite and options are checked before any run
 * (an {@link AttackSuiteError}).
 */
export async function runAttackSuite<Env>(
  suite: AttackSuite<Env>,
  options: RunAttackSuiteOptions = {},
): Promise<AttackReport> {
  checkAttackSuite(suite);
  const modes = checkedModes(options.modes);
  const maxResumes = options.maxResumes ?? 20;
  if (!Number.isSafeInteger(maxResumes) || maxResumes < 0)
    throw new AttackSuiteError(
      'invalid_attack_option',
      `maxResumes must be a whole number of at least 0, but it was ${describeValue(maxResumes)}.`,
    );
  const out = options.out === undefined ? undefined : resolve(options.out);
  if (options.out !== undefined) checkOutFolder(options.out);
  const save: SaveOptions = { redactions: options.redactions ?? [], secrets: options.secrets ?? [] };
  const reports: ModeReport[] = [];
  for (const mode of modes) {
    const report: ModeReport = {
      mode,
      benignUtility: { n: 0, of: 0 },
      writeAfterReadUtility: { n: 0, of: 0 },
      utilityUnderAttack: { n: 0, of: 0 },
      attackSuccess: { n: 0, of: 0 },
      attackerValueSuccess: { n: 0, of: 0 },
      successfulAttacks: [],
      failedBenignTasks: [],
    };
    for (const task of suite.tasks) {
      const { env } = await attackRun({ suite, mode, task, injection: undefined }, maxResumes);
      const done = task.done(env) === true;
      count(report.benignUtility, done);
      if (task.writeAfterRead) count(report.writeAfterReadUtility, done);
      if (!done) report.failedBenignTasks.push(task.id);
    }
    for (const task of suite.tasks) {
      for (const injection of suite.injections) {
        const attack: AttackCase<Env> = { suite, mode, task, injection };
        const { env } = await attackRun(attack, maxResumes);
        count(report.utilityUnderAttack, task.done(env) === true);
        const achieved = injection.achieved(env) === true;
        count(report.attackSuccess, achieved);
        if (injection.attackerValue) count(report.attackerValueSuccess, achieved);
        if (!achieved) continue;
        const success: SuccessfulAttack = {
          task: task.id,
          injection: injection.id,
          goal: injection.goal,
          attackerValue: injection.attackerValue,
        };
        if (out !== undefined) {
          try {
            success.trajectory = await writeAttack(attack, out, save, maxResumes);
          } catch (error) {
            // The attack is reported all the same; only its file is missing, and the report says why.
            success.writeError = error instanceof Error ? error.message : String(error);
          }
        }
        report.successfulAttacks.push(success);
      }
    }
    reports.push(report);
  }
  const data = {
    suite: suite.name,
    tasks: suite.tasks.length,
    writeAfterReadTasks: suite.tasks.filter((t) => t.writeAfterRead).length,
    injections: suite.injections.length,
    modes: reports,
  };
  return { ...data, toText: () => attackReportText(data) };
}

function count(tally: { n: number; of: number }, yes: boolean): void {
  tally.of++;
  if (yes) tally.n++;
}

/** The modes asked for: known ones, each once, at least one. */
function checkedModes(modes: unknown): readonly DefenceMode[] {
  if (modes === undefined) return DEFENCE_MODES;
  const fail = (problem: string): never => {
    throw new AttackSuiteError(
      'invalid_attack_option',
      `modes must be a non-empty list of defence modes (${DEFENCE_MODES.join(', ')}), each once, but ${problem}.`,
    );
  };
  if (!Array.isArray(modes)) fail(`it was ${describeValue(modes)}`);
  const list = modes as unknown[];
  if (list.length === 0) fail('it was empty');
  list.forEach((mode, i) => {
    if (!DEFENCE_MODES.includes(mode as DefenceMode)) fail(`modes[${i}] was ${describeValue(mode)}`);
    if (list.indexOf(mode) !== i) fail(`'${String(mode)}' was given twice`);
  });
  return list as DefenceMode[];
}
