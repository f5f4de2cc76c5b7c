import { pathBeyondDepth } from '../../json/jsonDepth.js';
import { MAX_INPUT_DEPTH } from '../schema/inputDepth.js';
import type { PublishedSchema } from '../schema/publishedSchema.js';
import type { ZodRefinement } from '../schema/fromZod.js';
import { compileSchema } from './compileSchema.js';
import { Refusal, toInvalidArgument, valueArrived, type InvalidArgument } from './invalidArgument.js';
import { tooDeep } from './tooDeep.js';

export type BindResult<Args> = { ok: true; args: Args } | { ok: false; invalid: InvalidArgument };

/** How a refusal is worded. */
export interface BindOptions {
  /**
   * Whether the message says what arrived (`but the value was the string "one"`). Default true:
   * the model that sent it reads it. False for a client outside the process (an MCP client).
   */
  quoteValue?: boolean;
}

/** Checks what the model sent against the schema it was shown. Never throws. */
export type Binder<Args> = (input: unknown, options?: BindOptions) => BindResult<Args>;

/**
 * Builds a tool's binder once: the structural check compiled from the published schema,
 * then, for a zod schema, zod's own refinements and transforms over the checked value.
 */
export function createBinder<Args>(tool: string, schema: PublishedSchema, refine?: ZodRefinement): Binder<Args> {
  const check = createCheck(tool, schema, refine);
  return (input, options) => {
    const checked = check(input);
    // Told apart by a member of their own, not by `instanceof`: the check is on every call's way, and a class whose
    // name the build sets (esbuild's keepNames) is left in V8's slow mode, where `instanceof` costs a lookup.
    return 'value' in checked
      ? { ok: true, args: checked.value as Args }
      : { ok: false, invalid: toInvalidArgument(tool, checked, options?.quoteValue) };
  };
}

/** A value checked against a schema: the bound value, or the refusal that says where and why. */
export type Check = (input: unknown) => { value: unknown } | Refusal;

/**
 * The check a binder makes, before the refusal is worded for a tool: JSON text parsed, the compiled
 * structural check (depth limited), then a zod schema's own rules. `owner` names what the schema
 * belongs to in a declaration error (a tool, or a run's output); `refusedBecause` says what follows
 * when a rule of the schema's own throws.
 *
 * No check, tool or approval predicate ever receives a value nested deeper than MAX_INPUT_DEPTH, and
 * an input that deep is refused as too deep, whatever else is wrong with it, at the first place (in
 * the order sent) where it crosses the limit. The compiled check counts the levels where it walks
 * and refuses the first array or object past the limit, and walks a value it keeps as sent (a
 * free-form object) only to check its depth: so it stops, on any input, within the limit, and
 * what it accepts is within it. Only an input it refuses is walked as a whole, so the refusal for
 * its depth, when it is too deep, comes first as before; an input it accepts costs no walk.
 */
export function createCheck(
  owner: string,
  schema: PublishedSchema,
  refine?: ZodRefinement,
  refusedBecause = 'the tool did not run',
): Check {
  const validate = compileSchema(owner, schema);
  return (input) => {
    try {
      let parsed = input;
      if (typeof input === 'string') {
        parsed = parseTopLevel(input);
        if (parsed instanceof Refusal) return parsed;
      }
      const bound = validate(parsed);
      if (bound instanceof Refusal) return depthRefusal(parsed) ?? bound;
      if (refine === undefined) return { value: bound };
      const refined = refine(bound);
      return refined instanceof Refusal ? refined : { value: refined };
    } catch (error) {
      // Only a schema's own refinement code can get here; the compiled checks do not throw.
      const name = error instanceof Error ? error.constructor.name : typeof error;
      return new Refusal('failed_rule', `its check failed with ${name}`, refusedBecause, true);
    }
  };
}

/** The refusal of an input nested too deep, at the first place where it crosses the limit, in the order sent. */
function depthRefusal(input: unknown): Refusal | undefined {
  const path = pathBeyondDepth(input, MAX_INPUT_DEPTH);
  return path === undefined ? undefined : tooDeep(path);
}

/**
 * The API hands over tool input as parsed JSON; a transport that passes raw text gets it
 * parsed here, and text that is not JSON is refused as such rather than bound as a string.
 */
function parseTopLevel(input: string): unknown {
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return new Refusal('not_parsable', 'a JSON object of named arguments', `${valueArrived(input)}, which is not JSON`);
  }
}
