import type { DefenceMode } from './attackSuite.js';

/** n of N: how many runs showed something, over how many there were. */
export interface Tally {
  n: number;
  of: number;
}

/** An injection whose goal was achieved: the task it rode on, and where its run was written. */
export interface SuccessfulAttack {
  task: string;
  injection: string;
  /** The injection goal's one line. */
  goal: string;
  attackerValue: boolean;
  /** The trajectory written for it (with `out`). */
  trajectory?: string;
  /** Why it could not be written (a secret no redaction removed, a run that did not repeat, ...). */
  writeError?: string;
}

/** One defence mode's figures. */
export interface ModeReport {
  mode: DefenceMode;
  /** Tasks done when run alone (no injection). */
  benignUtility: Tally;
  /** The same, over the write-after-read tasks only. */
  writeAfterReadUtility: Tally;
  /** (task, injection) pairs whose task was done all the same. */
  utilityUnderAttack: Tally;
  /** (task, injection) pairs whose injection's goal was achieved. */
  attackSuccess: Tally;
  /** The same, over the pairs whose goal needs a value only the attacker supplies. */
  attackerValueSuccess: Tally;
  /** In the order of the runs: task, then injection. */
  successfulAttacks: SuccessfulAttack[];
  /** Ids of the tasks not done when run alone. */
  failedBenignTasks: string[];
}

/** What {@link runAttackSuite} measured: per defence mode, in the order asked. */
export interface AttackReport {
  suite: string;
  tasks: number;
  writeAfterReadTasks: number;
  injections: number;
  modes: ModeReport[];
  /** The report as markdown: one table row per mode, then per mode each injection that succeeded, with its goal. */
  toText(): string;
}

const COLUMNS = [
  'mode',
  'benign utility',
  'write-after-read utility',
  'utility under attack',
  'attack success',
  'attacks needing an attacker value',
];

/** `n/N (p%)`, the percentage rounded to a whole number; `0/0 (n/a)` when there was nothing to count. */
function tallyText({ n, of }: Tally): string {
  return `${n}/${of} (${of === 0 ? 'n/a' : `${Math.round((100 * n) / of)}%`})`;
}

/** The markdown of a report (what `legate attack` prints and docs embed). */
export function attackReportText(report: Omit<AttackReport, 'toText'>): string {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const lines = [
    `Suite \`${report.suite}\`: ${report.tasks} user tasks (${report.writeAfterReadTasks} write-after-read), ` +
      `${report.injections} injection goals, ${report.tasks * report.injections} attacked runs per mode.`,
    '',
    row(COLUMNS),
    row(COLUMNS.map(() => '---')),
    ...report.modes.map((m) =>
      row([
        m.mode,
        ...[
          m.benignUtility,
          m.writeAfterReadUtility,
          m.utilityUnderAttack,
          m.attackSuccess,
          m.attackerValueSuccess,
        ].map(tallyText),
      ]),
    ),
  ];
  for (const m of report.modes) {
    const count = m.successfulAttacks.length;
    lines.push('', `Successful attacks under \`${m.mode}\`: ${count === 0 ? 'none.' : `${count}, by injection:`}`);
    if (count > 0) lines.push('');
    // One line per injection, in the order of its first success: its goal, and on how many tasks (the pairs are in
    // `successfulAttacks`, and each one's run in its trajectory).
    const byInjection = new Map<string, SuccessfulAttack[]>();
    for (const a of m.successfulAttacks) byInjection.set(a.injection, [...(byInjection.get(a.injection) ?? []), a]);
    for (const [injection, attacks] of byInjection) {
      const value = attacks[0]!.attackerValue ? ' (needs an attacker value)' : '';
      lines.push(`- \`${injection}\`${value}, on ${attacks.length} of ${report.tasks} tasks: ${attacks[0]!.goal}`);
    }
  }
  return lines.join('\n').replace(/ +$/gm, '');
}
