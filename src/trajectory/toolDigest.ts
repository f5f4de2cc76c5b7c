import { digestOf } from '../json/canonicalJson.js';
import type { RequestTool } from '../messages/types.js';

const digests = new WeakMap<object, string>();

/** The digest a tool is recorded under: of exactly what the model is shown. Cached per definition object. */
export function toolDigest(definition: Readonly<RequestTool>): string {
  let digest = digests.get(definition);
  if (digest === undefined) {
    digest = digestOf(definition);
    // Only a frozen definition cannot change after its digest is taken.
    if (Object.isFrozen(definition)) digests.set(definition, digest);
  }
  return digest;
}
