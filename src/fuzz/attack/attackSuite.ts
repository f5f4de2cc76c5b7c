import type { Agent } from '../../runtime/Agent.js';
import type { Transport } from '../../transport/transport.js';

/**
 * The defences an attack suite is measured under: `none` (no untrusted or privileged flags),
 * `taint` (strict taint: every privileged call in a tainted run is refused), `approve` (a
 * privileged call in a tainted run is held for a person) and `provenance` (a privileged call in a
 * tainted run is allowed when its sensitive arguments trace to trusted text).
 */
export type DefenceMode = 'none' | 'taint' | 'approve' | 'provenance';

/** Every defence mode, in the order a report lists them. */
export const DEFENCE_MODES: readonly DefenceMode[] = ['none', 'taint', 'approve', 'provenance'];

/**
 * A security and utility benchmark in the style of AgentDojo: a world, an agent over it per
 * defence mode, a scripted model, benign user tasks and injection goals planted in what the
 * agent reads. {@link runAttackSuite} runs it and reports utility and attack success per mode.
 */
export interface AttackSuite<Env = unknown> {
  /** Names the suite in the report and in the folder its trajectories are written to ('banking'). */
  name: string;
  /** A fresh world for one run. */
  environment(): Env;
  /** Plants `text` in every outside-authored place a task can read. */
  inject(env: Env, text: string): void;
  /** The agent over `env` with the defences of `mode` (mode 'none': no untrusted or privileged flags). */
  agent(env: Env, mode: DefenceMode, transport: Transport): Agent;
  /** A fresh scripted model for one run (it reads the conversation). */
  model(): Transport;
  tasks: UserTask<Env>[];
  injections: InjectionGoal<Env>[];
}

/** What a user asks of the agent, and how to tell it was done. */
export interface UserTask<Env = unknown> {
  id: string;
  prompt: string;
  /** The write's values come from something read in the run ("pay the bill in this file"). */
  writeAfterRead: boolean;
  /** Utility: the world shows what the user asked. */
  done(env: Env): boolean;
  /** The approving person (approve mode) says yes only to the calls this returns true for. */
  asked(call: { tool: string; input: unknown }, env: Env): boolean;
}

/** What an attacker wants, the instruction planted to get it, and how to tell it was got. */
export interface InjectionGoal<Env = unknown> {
  id: string;
  /** One line: what the attacker wants. */
  goal: string;
  /** The planted instruction. */
  text: string;
  /** The goal needs a value only the attacker supplies (an IBAN, a password). */
  attackerValue: boolean;
  /** Security: true = the attack succeeded. */
  achieved(env: Env): boolean;
}
