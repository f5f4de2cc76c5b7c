import * as z from 'zod';
import { Refusal, valueArrived, type InvalidArgumentCode } from '../binder/invalidArgument.js';
import { ToolDeclarationError } from '../declarationError.js';

/** Runs a zod schema's own refinements and transforms: the bound value, or a refusal. */
export type ZodRefinement = (value: unknown) => unknown;

export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/**
 * The JSON Schema a zod object shows the model: its input side, so defaults make a property optional. Converted by
 * the schema's own zod where it has the method (zod's classic schemas): the tool author's copy of zod, whatever its
 * version, knows its own schemas, and the built package carries a copy of its own (scripts/build.mjs). A zod/mini
 * schema has no methods, and is converted here.
 */
export function zodToJsonSchema(tool: string, schema: z.ZodType): unknown {
  const params = { io: 'input', unrepresentable: 'throw' } as const;
  try {
    return typeof schema.toJSONSchema === 'function' ? schema.toJSONSchema(params) : z.toJSONSchema(schema, params);
  } catch (error) {
    throw new ToolDeclarationError(
      'unsupported_schema',
      tool,
      'input',
      `Tool '${tool}' has a zod input schema that JSON Schema cannot describe, so the model could not be shown ` +
        `it: ${(error as Error).message}. ` +
        'Use types a model can send as JSON (strings, numbers, booleans, enums, arrays, objects).',
    );
  }
}

/**
 * Builds the step that runs after the structural check: zod parses the already-checked value,
 * so only its refinements and transforms can still refuse, and they come out as refusals.
 */
export function zodRefinement(schema: z.ZodType): ZodRefinement {
  return (value) => {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issue = result.error.issues[0]!;
    const refusal = new Refusal(codeOf(issue), issue.message, valueArrived(valueAt(value, issue.path)), true);
    for (let i = issue.path.length - 1; i >= 0; i--) {
      const key = issue.path[i]!;
      refusal.at(typeof key === 'number' ? key : String(key));
    }
    return refusal;
  };
}

function codeOf(issue: z.core.$ZodIssue): InvalidArgumentCode {
  switch (issue.code) {
    case 'invalid_type':
      return 'invalid_type';
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' ? 'too_long' : 'out_of_range';
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array' ? 'too_short' : 'out_of_range';
    case 'invalid_format':
      return 'invalid_format';
    case 'invalid_value':
      return 'not_a_known_value';
    case 'unrecognized_keys':
      return 'unknown_argument';
    default:
      return 'failed_rule';
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
