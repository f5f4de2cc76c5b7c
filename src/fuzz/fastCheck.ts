import type * as FastCheck from 'fast-check';
import { MissingPeerDependencyError, type OptionalPeer } from '../errors/MissingPeerDependencyError.js';

/** fast-check is an optional peer: only those who fuzz install it, at the version their project pins. */
export const FAST_CHECK: OptionalPeer = {
  name: 'fast-check',
  neededBy: 'legate/fuzz',
  install: 'npm install --save-dev fast-check',
};

/**
 * fast-check, loaded when legate/fuzz is imported. A static `import` of a missing package fails before any of our
 * code runs, with Node's own words; this import lets us say what to do. It is the module the user's own `import fc
 * from 'fast-check'` gets, so their arbitraries and ours mix.
 */
export async function loadFastCheck(
  load: () => Promise<{ default: typeof FastCheck.default }> = () => import('fast-check'),
): Promise<typeof FastCheck.default> {
  try {
    return (await load()).default;
  } catch (error) {
    throw MissingPeerDependencyError.orCause(error, FAST_CHECK);
  }
}

/** fast-check's default export, as `import fc from 'fast-check'` gives it: its functions, and (below) its types. */
export const fc: typeof FastCheck.default = await loadFastCheck();

/** The types legate/fuzz names as `fc.Arbitrary`, ..., as it would with fast-check imported statically. */
export declare namespace fc {
  type Arbitrary<T> = FastCheck.Arbitrary<T>;
  type RunDetails<T> = FastCheck.RunDetails<T>;
}
