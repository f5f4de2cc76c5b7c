import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LegateError } from '../../src/errors/LegateError.js';
import { MissingPeerDependencyError, type OptionalPeer } from '../../src/errors/MissingPeerDependencyError.js';
import { BETTER_SQLITE3, loadBetterSqlite3 } from '../../src/store/betterSqlite3.js';
import { FAST_CHECK, fc as loadedFastCheck, loadFastCheck } from '../../src/fuzz/fastCheck.js';

const TSX: OptionalPeer = {
  name: 'tsx',
  neededBy: 'Loading legate.config.ts',
  install: 'npm install --save-dev tsx',
  otherwise: 'or write legate.config.mjs',
};

/** What Node throws when a module cannot be found, by `require` and by `import` (which names the package). */
function notFound(kind: 'require' | 'import', specifier: string): Error {
  const pkg = specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
  const error = new Error(
    kind === 'require'
      ? `Cannot find module '${specifier}'\nRequire stack:\n- /app/index.js`
      : `Cannot find package '${pkg}' imported from /app/index.js`,
  );
  return Object.assign(error, { code: kind === 'require' ? 'MODULE_NOT_FOUND' : 'ERR_MODULE_NOT_FOUND' });
}

describe('MissingPeerDependencyError', () => {
  it('is a LegateError with a stable code that names the package and the command that installs it', () => {
    const error = new MissingPeerDependencyError(TSX);
    expect(error).toBeInstanceOf(LegateError);
    expect(error).toMatchObject({
      name: 'MissingPeerDependencyError',
      code: 'missing_peer_dependency',
      abortsRun: false,
      peer: 'tsx',
      installCommand: 'npm install --save-dev tsx',
    });
    expect(error.message).toBe(
      'Loading legate.config.ts needs the package tsx, which is not installed. ' +
        'legate declares it as an optional peer dependency, installed only by those who use it. ' +
        'Install it in your project: npm install --save-dev tsx (or write legate.config.mjs).',
    );
  });

  it('replaces an error that says the peer (or a path inside it) cannot be found, by require or by import', () => {
    const names = fc.stringMatching(/^(@[a-z0-9-]{1,8}\/)?[a-z0-9][a-z0-9._-]{0,12}$/);
    // The missing package: the peer, a package whose name starts with the peer's, or any other one.
    const missingOf = (peer: string) =>
      fc.oneof(
        fc.constant(peer),
        names.map((tail) => `${peer}${tail}`),
        names,
      );
    const cases = names.chain((peer) => fc.tuple(fc.constant(peer), missingOf(peer)));
    const kinds = fc.constantFrom('require' as const, 'import' as const);
    fc.assert(
      fc.property(cases, kinds, fc.constantFrom('', '/esm/api'), ([peer, missing], kind, subpath) => {
        const cause = notFound(kind, `${missing}${subpath}`);
        const thrown = MissingPeerDependencyError.orCause(cause, { ...TSX, name: peer });
        if (missing === peer) {
          expect(thrown).toBeInstanceOf(MissingPeerDependencyError);
          expect((thrown as Error).cause).toBe(cause);
        } else {
          // Another package missing (one the peer needs, say) is another fault.
          expect(thrown).toBe(cause);
        }
      }),
    );
  });

  it('leaves alone what is not a missing module: a broken install, an exports map, anything else thrown', () => {
    const exportsMap = `Package subpath './esm/api' is not defined by "exports" in /app/node_modules/tsx/package.json`;
    const broken = Object.assign(new Error(exportsMap), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
    for (const thrown of [broken, new Error("Cannot find module 'tsx'"), "Cannot find module 'tsx'", undefined, null]) {
      expect(MissingPeerDependencyError.orCause(thrown, TSX)).toBe(thrown);
    }
  });
});

describe('loading better-sqlite3 for legate/sqlite', () => {
  it('says how to install it when it cannot be found from where legate is', () => {
    const elsewhere = createRequire(join(tmpdir(), 'legate-no-such-project', 'index.js'));
    expect(() => loadBetterSqlite3(elsewhere)).toThrow(MissingPeerDependencyError);
    const thrown = (() => {
      try {
        loadBetterSqlite3(elsewhere);
      } catch (error) {
        return error as Error;
      }
    })();
    expect(thrown?.message).toMatch(/^legate\/sqlite needs the package better-sqlite3, which is not installed\./);
    expect(thrown?.message).toMatch(/ Install it in your project: npm install better-sqlite3\.$/);
  });

  it('passes on the failure of an installed driver that cannot load a dependency of its own', () => {
    const cause = notFound('require', 'bindings');
    expect(() =>
      loadBetterSqlite3(() => {
        throw cause;
      }),
    ).toThrow(cause);
  });

  it('returns the driver where it is installed', () => {
    expect(typeof loadBetterSqlite3()).toBe('function');
    expect(BETTER_SQLITE3.install).toBe('npm install better-sqlite3');
  });
});

describe('loading fast-check for legate/fuzz', () => {
  it('says how to install it when it cannot be found', async () => {
    const cause = notFound('import', 'fast-check');
    const thrown = (await loadFastCheck(() => Promise.reject(cause)).catch((error: unknown) => error)) as Error;
    expect(thrown).toBeInstanceOf(MissingPeerDependencyError);
    expect(thrown).toMatchObject({ peer: 'fast-check', installCommand: 'npm install --save-dev fast-check', cause });
    expect(thrown.message).toMatch(/^legate\/fuzz needs the package fast-check, which is not installed\./);
    expect(thrown.message).toMatch(/ Install it in your project: npm install --save-dev fast-check\.$/);
  });

  it('passes on the failure of an installed fast-check that cannot load a dependency of its own', async () => {
    const cause = notFound('import', 'pure-rand');
    await expect(loadFastCheck(() => Promise.reject(cause))).rejects.toBe(cause);
  });

  it("is the module the user's own import of fast-check gets, so their arbitraries and legate's mix", async () => {
    expect(await loadFastCheck()).toBe(fc);
    expect(loadedFastCheck).toBe(fc);
    expect(FAST_CHECK.name).toBe('fast-check');
  });
});
