import { LegateError } from '../errors/LegateError.js';
import { formatJsonPath, type JsonPath } from '../json/jsonPath.js';
import type { InvalidArgumentCode, Refusal } from '../tools/binder/invalidArgument.js';
import type { AgentResult } from './agentResult.js';

/**
 * The model's final answer is not what the run's `output` schema asks for: not JSON, or JSON the
 * schema refuses (a constraint the API does not enforce, such as `minimum`, or a zod refinement).
 * The run itself finished: its whole result, conversation and usage included, is `result`.
 */
export class StructuredOutputError extends LegateError {
  readonly code = 'invalid_output';
  /** The answer's text, as the model sent it. */
  readonly text: string;

  constructor(
    /** The finished run (its `output` unset). */
    readonly result: AgentResult,
    /** Where in the answer the first mismatch is (`[]`: the answer as a whole). */
    readonly path: JsonPath,
    /** Why, as the binder names it for a tool's input: `not_parsable`, `required`, `out_of_range`, ... */
    readonly reason: InvalidArgumentCode,
    message: string,
  ) {
    super(message);
    this.text = result.text;
  }

  /** The error for a refusal of the binder's check of the answer. */
  static of(result: AgentResult, refusal: Refusal): StructuredOutputError {
    const message = `The model's structured answer does not match the run's output schema: ${explain(refusal)}.`;
    return new StructuredOutputError(result, [...refusal.path], refusal.code, message);
  }
}

function explain(refusal: Refusal): string {
  const { code, expected, arrived, path } = refusal;
  const where = path.length === 0 ? 'the answer' : `the answer at ${formatJsonPath(path)}`;
  if (code === 'not_parsable') return `it must be a JSON object, but ${arrived}`;
  if (code === 'unknown_argument') return `${where} is a property the schema does not declare (${expected})`;
  if (code === 'required') return `${where} is required and must be ${expected}, but ${arrived}`;
  if (refusal.byOwnRule) return `${where} was refused: ${expected}; ${arrived}`;
  return `${where} must be ${expected}, but ${arrived}`;
}
