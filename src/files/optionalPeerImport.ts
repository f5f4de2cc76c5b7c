import { MissingPeerDependencyError, type OptionalPeer } from '../errors/MissingPeerDependencyError.js';

/**
 * An import of an optional peer, done on first use and kept, so the entry point that needs it
 * imports without it: a missing peer is a MissingPeerDependencyError naming `peer`'s install
 * command. A failed import is not kept, so installing the peer later works.
 */
export function optionalPeerImport<T>(load: () => Promise<T>, peer: OptionalPeer): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw MissingPeerDependencyError.orCause(error, peer);
    });
    return loaded;
  };
}
