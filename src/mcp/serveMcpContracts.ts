import { applyOutcomes } from '../guard/applyOutcomes.js';
import { compileRules, type Block, type CompiledRules, type ToolFacts } from '../guard/guardContext.js';
import { initialGuardState, type GuardState } from '../guard/guardState.js';
import { decideBatch } from '../guard/pipeline.js';
import type { Rule } from '../guard/rules.js';

/**
 * The contracts of one MCP session (limit, require, terminal), decided by legate's guard over a
 * guard state of the session's own. Only the contracts apply: every tool is given neutral flags,
 * so taint and authorization, which need the client's whole conversation, never block here.
 * A call is decided when it arrives and counts as an attempt at once (so calls running at the
 * same time cannot pass a limit together); its success is recorded when it finishes.
 */
export class SessionContracts {
  readonly #rules: CompiledRules;
  readonly #facts: ReadonlyMap<string, ToolFacts>;
  readonly #visible: readonly string[];
  #state: GuardState = initialGuardState();
  #turn = 0;

  constructor(contracts: readonly Rule[], tools: readonly string[]) {
    this.#rules = compileRules(contracts);
    const neutral: ToolFacts = { untrusted: false, privileged: false, policy: undefined };
    this.#facts = new Map(tools.map((name) => [name, neutral]));
    this.#visible = tools;
  }

  /** The guard's refusal of a call, or undefined when it may go on (it then counts as an attempt). */
  decide(id: string, name: string): Block | undefined {
    const turn = ++this.#turn;
    const [block] = decideBatch([{ id, name }], {
      state: this.#state,
      rules: this.#rules,
      tools: this.#facts,
      visible: this.#visible,
    });
    if (block !== undefined) return block;
    this.#state = applyOutcomes(
      this.#state,
      [{ id, name, allowed: true, succeeded: false }],
      turn,
      this.#facts,
      this.#rules,
    );
    return undefined;
  }

  /** Records a call that succeeded (its attempt was counted when it was decided). */
  succeeded(id: string, name: string): void {
    const outcome = { id, name, allowed: false, succeeded: true };
    this.#state = applyOutcomes(this.#state, [outcome], this.#turn, this.#facts, this.#rules);
  }
}
