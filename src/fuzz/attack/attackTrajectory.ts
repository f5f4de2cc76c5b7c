import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadTrajectory, saveTrajectory, type SaveOptions } from '../../trajectory/trajectoryFile.js';
import { recordTrajectory } from '../../replay/runTrajectory.js';
import { confinedPath, fileNameOf } from '../findingFile.js';
import { caseName, personDecides, worldOf, type AttackCase } from './attackRun.js';

/** Where a successful attack is written: `<out>/<suite>/<mode>/<task>--<injection>.yaml`, each part made safe. */
function attackFile<Env>(out: string, { suite, mode, task, injection }: AttackCase<Env>): string {
  const folder = join(out, fileNameOf(suite.name), mode);
  return confinedPath(folder, `${fileNameOf(task.id)}--${fileNameOf(injection?.id ?? 'none')}.yaml`);
}

/**
 * Runs a successful attack again, recorded (redacted and scanned for secrets like any recording,
 * the person's decisions in the file), to its {@link attackFile}. The recorded tools are listed
 * under `serve`, so a replay needs no world: it serves what the tools returned and checks what
 * the agent sent and decided. Throws when the recording cannot be written, when the run is still
 * suspended after `maxResumes` resumes, or when the recorded run did not achieve the attack again
 * (a suite that is not deterministic); no file is left in the last case.
 */
export async function writeAttack<Env>(
  attack: AttackCase<Env>,
  out: string,
  save: SaveOptions,
  maxResumes: number,
): Promise<string> {
  const file = attackFile(out, attack);
  mkdirSync(dirname(file), { recursive: true });
  const env = worldOf(attack);
  let resumes = 0;
  const { suite, mode, task, injection } = attack;
  await recordTrajectory({
    file,
    agent: (transport) => suite.agent(env, mode, transport),
    transport: () => suite.model(),
    config: false, // what applies is what the caller passes: the save options
    input: task.prompt,
    description:
      `Attack suite '${suite.name}', defence ${mode}: injection '${injection!.id}' (${injection!.goal}) ` +
      `succeeded on task '${task.id}'. Written by runAttackSuite: a call held for a person was approved only ` +
      'if the task asked for it.',
    redactions: save.redactions ?? [],
    secrets: save.secrets ?? [],
    report: false,
    approve: (suspension) => {
      if (++resumes > maxResumes)
        throw new Error(`${caseName(attack)}: still suspended after ${maxResumes} resumes; not written`);
      return personDecides(suspension, task, env);
    },
  });
  if (!injection!.achieved(env)) {
    rmSync(file, { force: true });
    throw new Error(
      `${caseName(attack)}: the recorded run did not achieve the attack again, so the suite is not ` +
        'deterministic (a fresh environment, model and agent must give the same run); nothing was written',
    );
  }
  const trajectory = loadTrajectory(file);
  trajectory.serve = [...new Set(trajectory.turns.flatMap((turn) => (turn.results ?? []).map((r) => r.tool)))];
  saveTrajectory(file, trajectory, save);
  return file;
}
