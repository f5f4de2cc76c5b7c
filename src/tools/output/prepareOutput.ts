import type { JsonPath } from '../../json/jsonPath.js';
import type { JsonOutputFormat } from '../../messages/types.js';
import type { Check } from '../binder/createBinder.js';
import { ToolDeclarationError, type DeclarationProblem } from '../declarationError.js';
import type { ArgsOf } from '../toolInput.js';
import type { PublishedSchema } from '../schema/publishedSchema.js';
import { compileOutputSchema, type CompiledOutputSchema } from './compileOutputSchema.js';
import { OutputSchemaError } from './outputSchemaError.js';
import { partialStringAllowed } from './partialOutput.js';
import { strictOutputSchema } from './strictOutputSchema.js';

export type { OutputSchema } from './compileOutputSchema.js';

/**
 * The type of `result.output` for a schema: zod's output type (after transforms and defaults), or
 * the type a JSON Schema literal describes (as a tool's arguments are typed).
 */
export type OutputOf<S> = ArgsOf<S>;

/** A run's output schema, read once: what the API is asked for, and the check of the answer. */
export interface PreparedOutput {
  /** Sent as `output_config.format`: the schema made strict for the API's structured outputs. */
  format: JsonOutputFormat;
  /** The whole schema the answer is checked against (legate's normal form, as for a tool's input). */
  schema: PublishedSchema;
  /** Checks the answer's text: parsed as JSON, then checked as a tool's input is, zod's own rules included. */
  check: Check;
  /** Whether a string being written at a path may be shown in a partial value (not under an enum). */
  partialStringAt: (path: JsonPath) => boolean;
}

/** The name a declaration error gives the output schema's owner (never a tool's name: it has a space). */
const OWNER = 'run output';

/**
 * Reads a run's `output` schema with the machinery a tool's input goes through (zod converted,
 * the schema normalised and checked, the binder compiled), then makes the API's strict form of it.
 * Every problem is reported at once, as an {@link OutputSchemaError}.
 */
export function prepareOutput(output: unknown): PreparedOutput {
  let compiled: CompiledOutputSchema;
  try {
    compiled = compileOutputSchema(OWNER, output, 'the answer was not accepted');
  } catch (error) {
    if (error instanceof ToolDeclarationError) throw OutputSchemaError.of(error.problems.map(asRunProblem));
    throw error;
  }
  const { schema, check } = compiled;
  const strict = strictOutputSchema(schema);
  if (strict.problems.length > 0) throw OutputSchemaError.of(strict.problems);
  return {
    format: { type: 'json_schema', schema: strict.schema },
    schema,
    check,
    partialStringAt: partialStringAllowed(schema),
  };
}

/** A problem of the output schema, worded for a run's (which has no tool's name). */
function asRunProblem(problem: DeclarationProblem): DeclarationProblem {
  return { ...problem, problem: problem.problem.replaceAll(`Tool '${OWNER}'`, 'The output schema') };
}
