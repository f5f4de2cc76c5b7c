import {
  type DeclarationErrorCode,
  type DeclarationProblem,
  ToolDeclarationError,
  type ToolDeclarationWarning,
} from '../declarationError.js';

type SchemaProblemCode = Extract<
  DeclarationErrorCode,
  'invalid_schema' | 'unsupported_schema' | 'unsupported_pattern' | 'invalid_default' | 'invalid_property_name'
>;

/**
 * The problems found in one tool's input schema. The whole schema is read before anything is
 * thrown, so one error lists every place to fix, not only the first.
 */
export class SchemaProblems {
  readonly #problems: DeclarationProblem[] = [];
  /** Findings that do not stop the tool: the schema means something, just not what it seems to say. */
  readonly warnings: ToolDeclarationWarning[] = [];

  constructor(readonly tool: string) {}

  warn(path: string, problem: string): void {
    if (this.warnings.some((w) => w.path === path)) return;
    this.warnings.push({
      code: 'inapplicable_keyword',
      tool: this.tool,
      path,
      message: `Tool '${this.tool}' has an input schema with a keyword that does nothing at ${path}: ${problem}`,
    });
  }

  add(path: string, code: SchemaProblemCode, problem: string): void {
    // A merged schema is read twice (its parts, then the whole): each problem is listed once.
    if (this.#problems.some((p) => p.path === path && p.problem === problem)) return;
    this.#problems.push({ code, path, problem });
  }

  /** Throws one error naming every problem, if there is any. */
  throwIfAny(): void {
    if (this.#problems.length === 0) return;
    throw schemaError(this.tool, 'input', [...this.#problems]);
  }
}

/** One error naming every problem of a tool's input or output schema (at least one), each at its path. */
export function schemaError(
  tool: string,
  which: 'input' | 'output',
  problems: readonly DeclarationProblem[],
): ToolDeclarationError {
  const first = problems[0]!;
  const lead = `Tool '${tool}' has an ${which} schema legate cannot use`;
  const listed = problems.map((p, i) => `(${i + 1}) at ${p.path}: ${p.problem}`).join(' ');
  const message =
    problems.length === 1
      ? `${lead} at ${first.path}: ${first.problem}`
      : `${lead} at ${problems.length} places: ${listed}`;
  return new ToolDeclarationError(first.code, tool, first.path, message, [...problems]);
}
