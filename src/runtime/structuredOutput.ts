import { Refusal } from '../tools/binder/invalidArgument.js';
import type { PreparedOutput } from '../tools/output/prepareOutput.js';
import type { AgentResult } from './agentResult.js';
import type { StopReason } from './stopReason.js';
import { StructuredOutputError } from './structuredOutputError.js';

/**
 * The stop reasons after which the last response is the model's whole answer, so it is the
 * structured output. After any other (`max_tokens`, `refusal`, `stop_sequence`, `max_turns`,
 * `suspended`, a stop reason the API added after this release, ...) there is no complete answer: `output` is
 * undefined and `stopReason` says why.
 */
const ANSWERED: ReadonlySet<StopReason> = new Set(['end_turn', 'terminal']);

/**
 * A finished run with its structured answer: the final text parsed and checked against the whole
 * output schema (zod's own rules included) and set as `result.output`. A mismatch throws
 * {@link StructuredOutputError}, which carries the result.
 */
export function withOutput(result: AgentResult, output: PreparedOutput | undefined): AgentResult {
  if (output === undefined) return result;
  if (!ANSWERED.has(result.stopReason)) return { ...result, output: undefined };
  const checked = output.check(result.text);
  if (checked instanceof Refusal) throw StructuredOutputError.of(result, checked);
  return { ...result, output: checked.value };
}
