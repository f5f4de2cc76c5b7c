import { LegateError } from '../errors/LegateError.js';

/** Why a module could not be imported: it is not there, or importing it failed. */
export type ModuleImportProblem = 'module_not_found' | 'module_import_failed';

/**
 * A module of the user's (a config, a module to fuzz) that legate could not import: the file is
 * not there (`module_not_found`), or importing it failed (`module_import_failed`: a syntax error,
 * an import that cannot be found, an error thrown at its top level). `cause` is the error the
 * import raised; `line` and `column` say where a syntax error is, when the loader says;
 * `missingImport`, what it imports that cannot be found.
 */
export class ModuleImportError extends LegateError {
  constructor(
    readonly code: ModuleImportProblem,
    /** The module, as legate was given it (absolute). */
    readonly file: string,
    /** What was wrong and what to do, without the path. */
    readonly problem: string,
    readonly line?: number,
    readonly column?: number,
    options?: { cause?: unknown; missingImport?: string },
  ) {
    super(`${line === undefined ? file : `${file}:${line}:${column ?? 1}`}: ${problem}`, options);
    this.missingImport = options?.missingImport;
  }

  /** The module or package the module imports that cannot be found, when that is why it failed. */
  readonly missingImport: string | undefined;

  /** The module `file` does not exist. */
  static notFound(file: string): ModuleImportError {
    return new ModuleImportError(
      'module_not_found',
      file,
      'cannot be imported: it does not exist; check the path (a relative one is resolved from the working folder).',
    );
  }

  /** Importing `file` raised `error`: said as what went wrong and what to do. */
  static failed(file: string, error: unknown): ModuleImportError {
    const { line, column } = syntaxLocation(error, file);
    const missing = missingImport(error, file);
    const problem =
      missing === undefined
        ? `cannot be imported: ${describe(error)}. Fix the module.`
        : missing.startsWith('.') || missing.startsWith('/') || missing.startsWith('file:')
          ? `cannot be imported: it imports '${missing}', which does not exist. Fix the import's path.`
          : `cannot be imported: it imports '${missing}', which is not installed. Install it ` +
            `(npm install ${packageName(missing)}) or fix the import.`;
    const options = { cause: error, ...(missing === undefined ? {} : { missingImport: missing }) };
    return new ModuleImportError('module_import_failed', file, problem, line, column, options);
  }
}

/** `SyntaxError: Unexpected token ';'`, on one line; esbuild's (tsx's) report said as the syntax error it is. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return `it threw ${typeof error} ${String(error)}`;
  const esbuild = ESBUILD_ERROR.exec(error.message);
  if (esbuild !== null) return `SyntaxError: ${esbuild[4]}`;
  return `${error.name}: ${error.message.replace(/\s*\n\s*/g, ' ').trim()}`;
}

/** A line of esbuild's "Transform failed" message: `/abs/file.ts:1:25: ERROR: Unexpected ";"` (column from 0). */
const ESBUILD_ERROR = /^(.+):(\d+):(\d+): ERROR: (.*)$/m;

/** The specifier a module imports that cannot be found (not the module itself). */
function missingImport(error: unknown, file: string): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const match = /^Cannot find (?:package|module) '([^']+)'/.exec(String((error as Error).message));
  return match === null || match[1] === file ? undefined : match[1];
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Where a syntax error is in `file` (1-based): from esbuild (tsx), or from the first line of a Node stack. */
function syntaxLocation(error: unknown, file: string): { line?: number; column?: number } {
  if (!(error instanceof Error)) return {};
  const esbuild = ESBUILD_ERROR.exec(error.message);
  if (esbuild !== null && esbuild[1] === file) return { line: Number(esbuild[2]), column: Number(esbuild[3]) + 1 };
  const first = /^(?:file:\/\/)?(\S+):(\d+)\n/.exec(error.stack ?? '');
  if (first !== null && decodeURI(first[1]!) === file) return { line: Number(first[2]) };
  return {};
}
