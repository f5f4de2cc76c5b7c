import { quoteValue } from '../json/describeValue.js';

/**
 * What the model is told when it calls a tool it cannot use. A tool hidden by authorization
 * gets the same words as one that does not exist, so the model learns nothing of it.
 */
export function unknownToolMessage(name: string, available: readonly string[]): string {
  const list =
    available.length === 0
      ? 'this agent has no tools'
      : `the tools available are ${available.map((n) => `'${n}'`).join(', ')}`;
  return `Tool ${quoteValue(name)} does not exist; ${list}.`;
}
