import type { PublishedSchema } from '../schema/prepareSchema.js';
import { Refusal, valueArrived, type ArgumentPath, type InvalidArgumentCode } from './invalidArgument.js';

/**
 * A compiled check for a tool's input: returns the bound value (defaults applied, nulls
 * standing for absence dropped) or a {@link Refusal}. It never throws.
 */
export type Validator = (value: unknown) => unknown;

type Refuser = (value: unknown, path: ArgumentPath, detail?: unknown) => Refusal;

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
}

/**
 * What the code of a schema's nodes is written with: the values and names the generated source refers to, the
 * refusals it returns, the functions and constants it declares, and the validator it becomes. Writing one node's
 * code is the generator's (compileSchema's CodeGenerator); an array's, an object's or a union's code asks it for
 * its members' through {@link node}.
 */
export abstract class CodeWriter {
  readonly #refs: unknown[] = [];
  readonly #functions: string[] = [];
  readonly #refFunctions = new Map<string, string>();
  #vars = 0;

  constructor(
    readonly tool: string,
    readonly root: PublishedSchema,
    /** Schemas whose default is checked (or being checked), shared with the generators made for defaults. */
    readonly defaults = new Set<object>(),
  ) {}

  /** Code that checks the value at `site` against `schema` and binds it to `site.out`, or returns a refusal. */
  abstract node(schema: unknown, site: Site): string;

  /** A default must pass its own schema: checked once, with a validator of its own. */
  abstract checkDefault(schema: PublishedSchema, at: string): void;

  compile(schema: unknown, root: boolean, at: string): Validator {
    const body = this.node(schema, { input: 'value', path: [], out: 'bound', at, root });
    const locals = [`R = refs[0]`, ...this.#refs.map((_, i) => `r${i} = refs[${i + 1}]`)].join(', ');
    const source =
      `"use strict"; const ${locals};\n${this.#functions.join('\n')}\n` +
      `return function bind(value) {\nlet bound;\n${body}\nreturn bound;\n};`;
    return new Function('refs', source)([Refusal, ...this.#refs]) as Validator;
  }

  /** A value the generated code refers to as `rN`. */
  ref(value: unknown): string {
    this.#refs.push(value);
    return `r${this.#refs.length - 1}`;
  }

  var(prefix: string): string {
    return `${prefix}${this.#vars++}`;
  }

  refuser(
    code: InvalidArgumentCode,
    expected: string,
    arrived: (value: unknown, detail: unknown) => string = valueArrived,
  ): string {
    const refuse: Refuser = (value, path, detail) =>
      new Refusal(code, expected, () => arrived(value, detail)).withPath(path);
    return this.ref(refuse);
  }

  /** `return rN(value, [path], detail)`: a refusal of the value at `site`; `detail` is code the words may use. */
  refuse(
    site: Site,
    code: InvalidArgumentCode,
    expected: string,
    arrived?: (v: unknown, d: unknown) => string,
    detail?: string,
  ): string {
    const args = detail === undefined ? `${site.input}, [${site.path}]` : `${site.input}, [${site.path}], ${detail}`;
    return `return ${this.refuser(code, expected, arrived)}(${args});`;
  }

  /** The condition `value is not a JSON object`. */
  notAnObject(input: string): string {
    return `typeof ${input} !== "object" || ${input} === null || Array.isArray(${input})`;
  }

  /**
   * A function of its own for `schema` (a `$ref` target or a union's alternative): `fN(value)`
   * returns the bound value or a refusal whose path starts at that value.
   */
  function(schema: unknown, at: string, root: boolean, key?: string): string {
    if (key !== undefined && this.#refFunctions.has(key)) return this.#refFunctions.get(key)!;
    const name = this.var('f');
    if (key !== undefined) this.#refFunctions.set(key, name);
    const body = this.node(schema, { input: 'value', path: [], out: 'bound', at, root });
    this.#functions.push(`function ${name}(value) {\nlet bound;\n${body}\nreturn bound;\n}`);
    return name;
  }

  /** A constant at module level, made once when the validator is built: its name. */
  declare(expression: string): string {
    const name = this.var('l');
    this.#functions.push(`const ${name} = ${expression};`);
    return name;
  }

  /** Code that runs a function made by {@link function} and either binds its result or returns its refusal. */
  call(fn: string, site: Site): string {
    const result = this.var('c');
    const prefix = site.path.length === 0 ? '' : `${result}.under([${site.path}]); `;
    const check = `if (${result} instanceof R) { ${prefix}return ${result}; }`;
    return `const ${result} = ${fn}(${site.input}); ${check}\n${site.out} = ${result};`;
  }
}
