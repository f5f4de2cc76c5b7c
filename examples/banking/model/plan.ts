import type { Call, Conversation } from './conversation.js';

/**
 * A sentence the scripted model understands, and the calls it asks for. The plan lists its calls in order and stops
 * at a read whose result it still needs; the model makes the first call not yet made.
 */
export interface Plan {
  pattern: RegExp;
  plan(match: RegExpExecArray, c: Conversation): Call[];
}
