import type fc from 'fast-check';
import type { AnyTool } from '../../tools/tool.js';
import { objectOf } from './arbitraryOf.js';

/** Inputs the tool's schema accepts: every one must reach `run`, with the values sent (after defaults). */
export function validInput(tool: AnyTool): fc.Arbitrary<Record<string, unknown>> {
  return objectOf(tool.inputSchema);
}
