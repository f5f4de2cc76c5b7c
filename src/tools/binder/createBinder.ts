import { pathBeyondDepth } from '../../json/jsonDepth.js';
import { MAX_INPUT_DEPTH } from '../schema/inputDepth.js';
import type { PublishedSchema } from '../schema/prepareSchema.js';
import type { ZodRefinement } from '../schema/fromZod.js';
import { compileSchema } from './compileSchema.js';
import { Refusal, toInvalidArgument, valueArrived, type InvalidArgument } from './invalidArgument.js';

export type BindResult<Args> = { ok: true; args: Args } | { ok: false; invalid: InvalidArgument };

/** Checks what the model sent against the schema it was shown. Never throws. */
export type Binder<Args> = (input: unknown) => BindResult<Args>;

/**
 * Builds a tool's binder once: the structural check compiled from the published schema,
 * then, for a zod schema, zod's own refinements and transforms over the checked value.
 */
export function createBinder<Args>(tool: string, schema: PublishedSchema, refine?: ZodRefinement): Binder<Args> {
  const validate = compileSchema(tool, schema);
  const refuse = (refusal: Refusal): BindResult<Args> => ({ ok: false, invalid: toInvalidArgument(tool, refusal) });
  return (input) => {
    try {
      const parsed = parseTopLevel(input);
      if (parsed instanceof Refusal) return refuse(parsed);
      const tooDeep = depthRefusal(parsed);
      if (tooDeep !== undefined) return refuse(tooDeep);
      const bound = validate(parsed);
      if (bound instanceof Refusal) return refuse(bound);
      if (refine === undefined) return { ok: true, args: bound as Args };
      const refined = refine(bound);
      return refined instanceof Refusal ? refuse(refined) : { ok: true, args: refined as Args };
    } catch (error) {
      // Only a tool's own refinement code can get here; the compiled checks do not throw.
      const name = error instanceof Error ? error.constructor.name : typeof error;
      return refuse(new Refusal('failed_rule', `its check failed with ${name}`, 'the tool did not run', true));
    }
  };
}

/**
 * Checked before any other look at the input, and without recursion: no check, tool or
 * approval predicate ever receives a value nested deeper than {@link MAX_INPUT_DEPTH}.
 */
function depthRefusal(input: unknown): Refusal | undefined {
  const path = pathBeyondDepth(input, MAX_INPUT_DEPTH);
  if (path === undefined) return undefined;
  const expected =
    `nested at most ${MAX_INPUT_DEPTH} levels deep (arrays and objects inside one another, the input itself ` +
    'being the first)';
  return new Refusal('too_deep', expected, `it reached level ${MAX_INPUT_DEPTH + 1}`).withPath(path);
}

/**
 * The API hands over tool input as parsed JSON; a transport that passes raw text gets it
 * parsed here, and text that is not JSON is refused as such rather than bound as a string.
 */
function parseTopLevel(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return new Refusal('not_parsable', 'a JSON object of named arguments', `${valueArrived(input)}, which is not JSON`);
  }
}
