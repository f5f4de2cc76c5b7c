import type { PublishedSchema } from '../schema/publishedSchema.js';
import type { InvalidArgumentCode } from './invalidArgument.js';

/** Where a node's code runs: its input and output variables, its path expressions, its declaration path. */
export interface Site {
  input: string;
  /** JavaScript expressions for the path, relative to the enclosing function's value. */
  path: string[];
  out: string;
  /** The declaration path, for messages about the schema itself (`input.properties.tags`). */
  at: string;
  /** True for the tool's input object itself: its members are "arguments". */
  root: boolean;
  /** How many arrays and objects hold the value, within the enclosing function's value (which is at 0). */
  depth: number;
}

/**
 * What the code for one kind of node (an array, an object, a union, a string, a number) asks of the
 * generator compiling the whole schema (`CodeGenerator` in compileSchema.ts): values the code refers
 * to, fresh names, refusals, and the code for the nodes inside it.
 */
export interface Emitter {
  /** The tool's name, for declaration errors. */
  readonly tool: string;
  /** The whole published schema, where `$ref`s and descriptions resolve. */
  readonly root: PublishedSchema;
  /** A value the generated code refers to as `rN`. */
  ref(value: unknown): string;
  /** A number as a JavaScript literal: only a finite number is one, and anything else is thrown. */
  literal(n: unknown): string;
  /** A fresh variable name with the prefix. */
  var(prefix: string): string;
  /** A function the code calls to make a refusal of this code, expectation and arrival. */
  refuser(code: InvalidArgumentCode, expected: string, arrived?: (value: unknown, detail: unknown) => string): string;
  /** `return rN(value, [path], detail)`: a refusal of the value at `site`; `detail` is code the words may use. */
  refuse(
    site: Site,
    code: InvalidArgumentCode,
    expected: string,
    arrived?: (v: unknown, d: unknown) => string,
    detail?: string,
  ): string;
  /** The condition `value is not a JSON object`. */
  notAnObject(input: string): string;
  /** Code that refuses the array or object at `site` when it is nested deeper than the input may go. */
  container(site: Site): string;
  /** Code that binds the value at `site` as sent, refused when it is nested deeper than the input may go. */
  keep(site: Site): string;
  /** The arguments of a function made here called on the value at `site`: the value, and its room if counted. */
  args(site: Site): string;
  /**
   * A function of its own for `schema`: `fN(value, room)` returns the bound value or a refusal relative to that
   * value; call it with {@link args}.
   */
  function(schema: unknown, at: string, root: boolean, key?: string): string;
  /** A function for a schema a value is only matched against: whether it refuses is all that is read. */
  matcher(schema: unknown, at: string): string;
  /** A constant at module level, made once when the validator is built: its name. */
  declare(expression: string): string;
  /** The code of a node at a site. */
  node(schema: unknown, site: Site): string;
  /** A default must pass its own schema: checked once, when the tool is defined. */
  checkDefault(schema: PublishedSchema, at: string): void;
}

/** Statements as source, one to a line, for a person reading the generated code. */
export function statements(lines: readonly string[]): string {
  // Each statement ends in `;` or `}` already: the newline between them is for reading only.
  // Stryker disable next-line StringLiteral: equivalent, as the statements read the same on one line
  return lines.join('\n');
}
