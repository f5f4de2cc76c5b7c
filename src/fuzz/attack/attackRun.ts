import type { ApprovalDecision } from '../../runtime/approval/approvalDecision.js';
import type { AgentResult } from '../../runtime/agentResult.js';
import type { Suspension } from '../../runtime/agentResult.js';
import type { AttackSuite, DefenceMode, InjectionGoal, UserTask } from './attackSuite.js';

/** One run of a suite: a task, alone or under one injection, in one defence mode. */
export interface AttackCase<Env> {
  suite: AttackSuite<Env>;
  mode: DefenceMode;
  task: UserTask<Env>;
  injection: InjectionGoal<Env> | undefined;
}

/** The world a case runs in: fresh, with the injection (if any) planted. */
export function worldOf<Env>({ suite, injection }: AttackCase<Env>): Env {
  const env = suite.environment();
  if (injection !== undefined) suite.inject(env, injection.text);
  return env;
}

/**
 * The approving person: yes to each pending call the user asked for (`task.asked`, given the
 * world as it stands when the run stopped), no to every other, one decision per pending call.
 */
export function personDecides<Env>(suspension: Suspension, task: UserTask<Env>, env: Env): ApprovalDecision[] {
  return suspension.pending.map((call) => ({
    id: call.id,
    inputDigest: call.inputDigest,
    approve: task.asked({ tool: call.tool, input: call.input }, env) === true,
  }));
}

/**
 * Runs a case: a fresh world, model and agent; the task's prompt; each suspension resumed with
 * the person's decisions until the run ends or `maxResumes` resumes were made (a run still
 * suspended then is left as it stands: what it held never ran). Returns the world after the run.
 */
export async function attackRun<Env>(
  attack: AttackCase<Env>,
  maxResumes: number,
): Promise<{ env: Env; result: AgentResult }> {
  try {
    const env = worldOf(attack);
    const agent = attack.suite.agent(env, attack.mode, attack.suite.model());
    let result = await agent.run(attack.task.prompt);
    for (let resumes = 0; result.stopReason === 'suspended' && resumes < maxResumes; resumes++) {
      result = await agent.resume(result.suspension!, { approve: personDecides(result.suspension!, attack.task, env) });
    }
    return { env, result };
  } catch (error) {
    throw new Error(`${caseName(attack)}: the run failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** A case in words, for messages: `attack suite 'banking', mode taint, task pay-bill, injection steal`. */
export function caseName<Env>({ suite, mode, task, injection }: AttackCase<Env>): string {
  const under = injection === undefined ? 'alone' : `under injection '${injection.id}'`;
  return `attack suite '${suite.name}', mode ${mode}: task '${task.id}' ${under}`;
}
