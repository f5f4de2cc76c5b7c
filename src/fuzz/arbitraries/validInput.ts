import type fc from 'fast-check';
import type { AnyTool } from '../../tools/tool.js';
import { valuesOf } from './arbitraryOf.js';
import { generationFor } from './generation.js';

/**
 * Inputs the tool's schema accepts: every one must reach `run`, with the values sent (after
 * defaults). Now and then an optional property whose schema refuses null is sent as null, which
 * the binder reads as absent.
 */
export function validInput(tool: AnyTool): fc.Arbitrary<Record<string, unknown>> {
  const values = valuesOf(tool.inputSchema, generationFor(tool.inputSchema, true), 0);
  if (values === undefined) throw new Error(`Tool '${tool.name}' has an input schema no value satisfies`);
  return values as fc.Arbitrary<Record<string, unknown>>;
}
