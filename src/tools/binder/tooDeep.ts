import { MAX_INPUT_DEPTH } from '../schema/inputDepth.js';
import { type ArgumentPath, Refusal } from './invalidArgument.js';

/**
 * The refusal of an input nested deeper than {@link MAX_INPUT_DEPTH} levels, at `path`: where its
 * first array or object past the limit sits.
 */
export function tooDeep(path: ArgumentPath): Refusal {
  const expected =
    `nested at most ${MAX_INPUT_DEPTH} levels deep (arrays and objects inside one another, the input itself ` +
    'being the first)';
  return new Refusal('too_deep', expected, `it reached level ${MAX_INPUT_DEPTH + 1}`).withPath(path);
}
