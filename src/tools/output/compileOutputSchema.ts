import type * as z from 'zod';
import { describeValue } from '../../json/describeValue.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { createCheck, type Check } from '../binder/createBinder.js';
import { ToolDeclarationError, type DeclarationProblem } from '../declarationError.js';
import { isZodSchema, zodRefinement, zodToJsonSchema } from '../schema/fromZod.js';
import type { JsonObjectSchema } from '../schema/jsonSchema.js';
import { prepareSchema } from '../schema/prepareSchema.js';
import type { PublishedSchema } from '../schema/publishedSchema.js';
import { schemaError } from '../schema/schemaProblems.js';

/** What a result must be: a zod object schema, or a JSON Schema object. */
export type OutputSchema = z.ZodType | JsonObjectSchema;

/** An output schema read once: the schema in legate's normal form, and the check of a value against it. */
export interface CompiledOutputSchema {
  schema: PublishedSchema;
  check: Check;
}

/**
 * Reads an output schema (a run's structured answer, or a tool's result) with the machinery a
 * tool's input goes through: zod converted, the schema normalised and checked, the binder's check
 * compiled (zod's own rules included). Every problem is reported at once as a
 * {@link ToolDeclarationError} whose paths start at `output` (`output.properties.tags`);
 * `owner` names what the schema belongs to in its message.
 */
export function compileOutputSchema(owner: string, output: unknown, refusedBecause: string): CompiledOutputSchema {
  const zod = isZodSchema(output) ? output : undefined;
  if (zod === undefined && !isPlainObject(output))
    throw schemaError(owner, 'output', [
      {
        code: 'invalid_schema',
        path: 'output',
        problem: `'output' must be a zod object schema or a JSON Schema object, but it was ${describeValue(output)}.`,
      },
    ]);
  try {
    const schema = prepareSchema(owner, zod ? zodToJsonSchema(owner, zod) : output, zod !== undefined).schema;
    return { schema, check: createCheck(owner, schema, zod && zodRefinement(zod), refusedBecause) };
  } catch (error) {
    if (error instanceof ToolDeclarationError) throw schemaError(owner, 'output', error.problems.map(asOutputProblem));
    throw error;
  }
}

/** A problem found by the tool-schema machinery, placed and worded for an output schema. */
function asOutputProblem(problem: DeclarationProblem): DeclarationProblem {
  const path = problem.path === 'input' ? 'output' : problem.path.replace(/^input\./, 'output.');
  const text = problem.problem.replaceAll("a tool's input must be", 'an output schema must be');
  return { code: problem.code, path, problem: text };
}
