import type fc from 'fast-check';
import { UsageError } from '../../errors/UsageError.js';
import type { AnyTool } from '../../tools/tool.js';
import { arbitraryOf } from './arbitraryOf.js';

/**
 * Inputs the tool's schema accepts: every one must reach `run`, with the values sent (after
 * defaults). Now and then an optional property whose schema refuses null is sent as null, which
 * the binder reads as absent, and a required property with a default is left out, which takes it.
 * Throws a UsageError (`unsatisfiable_schema`) when no input can be generated.
 */
export function validInput(tool: AnyTool): fc.Arbitrary<Record<string, unknown>> {
  return inputsOf(tool, true);
}

/** The valid inputs of a tool, or the UsageError saying there are none. */
export function inputsOf(tool: AnyTool, absences: boolean): fc.Arbitrary<Record<string, unknown>> {
  const values = arbitraryOf(tool.inputSchema, tool.inputSchema, absences);
  if (values === undefined)
    throw new UsageError(
      'unsatisfiable_schema',
      `Tool '${tool.name}' cannot be fuzzed: no input satisfies its input schema (a required property whose ` +
        `schema is false, bounds that leave no value, or a not/oneOf that excludes every value generated). ` +
        `Fix the schema so some input is valid.`,
    );
  return values as fc.Arbitrary<Record<string, unknown>>;
}
