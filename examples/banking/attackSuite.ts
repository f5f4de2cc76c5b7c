// TEMPORARY: the attack-suite contract, declared here until h/report commits it in src/fuzz (then this file goes,
// and the suite imports the types from '../../src/fuzz/index.js').
import type { Agent, Transport } from '../../src/index.js';

export type DefenceMode = 'none' | 'taint' | 'approve' | 'provenance';

export interface AttackSuite<Env = unknown> {
  name: string;
  environment(): Env;
  inject(env: Env, text: string): void;
  agent(env: Env, mode: DefenceMode, transport: Transport): Agent;
  model(): Transport;
  tasks: UserTask<Env>[];
  injections: InjectionGoal<Env>[];
}

export interface UserTask<Env = unknown> {
  id: string;
  prompt: string;
  writeAfterRead: boolean;
  done(env: Env): boolean;
  asked(call: { tool: string; input: unknown }, env: Env): boolean;
}

export interface InjectionGoal<Env = unknown> {
  id: string;
  goal: string;
  text: string;
  attackerValue: boolean;
  achieved(env: Env): boolean;
}
