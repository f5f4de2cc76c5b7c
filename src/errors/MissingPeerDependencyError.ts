import { LegateError } from './LegateError.js';

/**
 * A package legate declares as an optional peer dependency: installed only by those who use the
 * part of legate that needs it, so that `npm install legate` stays light and needs no compiler.
 */
export interface OptionalPeer {
  /** The package, as `npm install` spells it: `better-sqlite3`. */
  readonly name: string;
  /** What needs it, said to the user: `legate/sqlite`. */
  readonly neededBy: string;
  /** The command that installs it: `npm install better-sqlite3`. */
  readonly install: string;
  /** Another way out, when there is one: `or write the config as legate.config.mjs`. */
  readonly otherwise?: string;
}

/** An optional peer dependency that is not installed, though something that needs it was used. */
export class MissingPeerDependencyError extends LegateError {
  readonly code = 'missing_peer_dependency';
  /** The package that is missing. */
  readonly peer: string;
  /** The command that installs it. */
  readonly installCommand: string;

  constructor(peer: OptionalPeer, options?: { cause?: unknown }) {
    super(
      `${peer.neededBy} needs the package ${peer.name}, which is not installed. legate declares it as an optional ` +
        `peer dependency, installed only by those who use it. Install it in your project: ${peer.install}` +
        `${peer.otherwise === undefined ? '' : ` (${peer.otherwise})`}.`,
      options,
    );
    this.peer = peer.name;
    this.installCommand = peer.install;
  }

  /**
   * What to throw when loading `peer` failed: this error when `error` says that the package itself
   * cannot be found (by `require` or by `import`), otherwise `error` unchanged (a package that is
   * installed but broken, or a dependency of it that is missing, is a different fault).
   */
  static orCause(error: unknown, peer: OptionalPeer): unknown {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return error;
    const message = String((error as { message?: unknown }).message);
    const aboutPeer = message.includes(`'${peer.name}'`) || message.includes(`'${peer.name}/`);
    return aboutPeer ? new MissingPeerDependencyError(peer, { cause: error }) : error;
  }
}
