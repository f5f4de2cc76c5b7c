import { LegateError } from '../../errors/LegateError.js';

export type AttackSuiteErrorCode = 'no_suite' | 'invalid_suite' | 'invalid_attack_option';

/**
 * An attack suite, or the options it is run with, cannot be used: a module that exports no
 * suite, a suite missing a part or with two tasks of one id, a defence mode that does not exist.
 * Said before any run.
 */
export class AttackSuiteError extends LegateError {
  constructor(
    readonly code: AttackSuiteErrorCode,
    message: string,
  ) {
    super(message);
  }
}
