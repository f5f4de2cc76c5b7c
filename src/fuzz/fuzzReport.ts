import type { GuardRule } from '../guard/guardContext.js';

/** One property that did not hold, with what it takes to reproduce it. */
export interface FuzzFailure {
  property: string;
  /** Replays the run: `{ seed, path }` to fast-check. */
  seed: number;
  path: string | undefined;
  /** The shrunk input that broke the property. */
  counterexample: unknown;
  message: string;
  /**
   * For an injection failure: the rule the run broke and the call that broke it, as data (the
   * call a written finding expects to be blocked).
   */
  violation?: { rule: GuardRule; tool: string; id: string; turn: number };
  /** For an injection failure: the trajectory written for it. */
  trajectory?: string;
  /**
   * For an injection failure whose trajectory could not be written (it held a declared secret
   * that no redaction removed, the disk was full, ...): why. The finding is reported all the same.
   */
  writeError?: string;
}

export interface FuzzReport {
  target: string;
  kind: 'tool' | 'agent';
  cases: number;
  failures: FuzzFailure[];
  seconds: number;
  casesPerSecond: number;
}
