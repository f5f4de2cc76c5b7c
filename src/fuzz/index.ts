// legate/fuzz: fast-check arbitraries from tool schemas, and the fuzzers built on them.
export { validInput } from './arbitraries/validInput.js';
export { malformedInput, type MalformedCase, type Malformation } from './arbitraries/malformedInput.js';
export { fuzzTool, type FuzzToolOptions } from './fuzzTool.js';
export type { FuzzFailure, FuzzReport } from './fuzzReport.js';
export { fuzzInjection, type FuzzInjectionOptions } from './fuzzInjection.js';
export { INJECTION_TEMPLATES, type InjectionTarget, type PayloadTemplate } from './payloads.js';
// What `legate fuzz` fuzzes in a module, and the check it makes of --out before fuzzing anything.
export { findFuzzTargets, type FuzzTargets } from './fuzzTargets.js';
export { checkOutFolder, FindingOutputError, type FindingOutputErrorCode } from './findingFile.js';
// Security and utility under attack, per defence mode (AgentDojo style): `legate attack`.
export {
  DEFENCE_MODES,
  type AttackSuite,
  type DefenceMode,
  type InjectionGoal,
  type UserTask,
} from './attack/attackSuite.js';
export { runAttackSuite, type RunAttackSuiteOptions } from './attack/runAttackSuite.js';
export type { AttackReport, ModeReport, SuccessfulAttack, Tally } from './attack/attackReport.js';
export { AttackSuiteError, type AttackSuiteErrorCode } from './attack/attackSuiteError.js';
// What `legate attack` runs: the suite a module exports, checked.
export { loadAttackSuite } from './attack/loadAttackSuite.js';
