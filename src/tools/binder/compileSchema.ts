import { canonicalJson } from '../../json/canonicalJson.js';
import { nestsBeyond } from '../../json/jsonDepth.js';
import { isPlainObject } from '../../json/jsonValue.js';
import { ToolDeclarationError } from '../declarationError.js';
import { MAX_INPUT_DEPTH } from '../schema/inputDepth.js';
import type { PublishedSchema } from '../schema/publishedSchema.js';
import { typesOf } from '../schema/schemaFacts.js';
import { parseLocalRef, valueAtPointer } from '../schema/schemaPointer.js';
import { emitArray } from './compileArray.js';
import { emitObject } from './compileObject.js';
import { emitUnion } from './compileUnion.js';
import { describeExpectation } from './expectation.js';
import { Refusal, valueArrived, type ArgumentPath, type InvalidArgumentCode } from './invalidArgument.js';
import { emitNumber } from './compileNumber.js';
import { type Emitter, type Site, statements } from './emitter.js';
import { emitString } from './compileString.js';
import { tooDeep } from './tooDeep.js';

/**
 * A compiled check for a tool's input: returns the bound value (defaults applied, nulls
 * standing for absence dropped) or a {@link Refusal}. It never throws.
 */
type Validator = (value: unknown) => unknown;

/**
 * Compiles a published schema into JavaScript, once, when the tool is defined, the way ajv
 * does: straight-line checks over named property reads and an object literal for the bound
 * arguments, which V8 optimises far better than a tree of generic closures. A `$ref` target
 * and each alternative of a union become a function of their own, whose refusals carry paths
 * relative to their value; the caller prefixes its own location when one fails.
 *
 * Safety of the generated source: property names enter it only as JSON string literals, and
 * numbers only as finite numeric literals (`literal`); patterns, sets, defaults and every message are
 * passed in as values (`r0`, `r1`, ...), never spliced into the code.
 *
 * Depth: the code counts the levels of arrays and objects where it walks the input, so it stops
 * within MAX_INPUT_DEPTH on any input (a recursive schema and a cyclic value included): `room` is
 * how many levels the value of a function may still nest (MAX_INPUT_DEPTH for the input itself),
 * and the first array or object past it is refused as too deep, as is a value kept as sent (a
 * free-form object) that nests past it. What the code accepts is therefore within the limit.
 * Where it only reads values already checked (the bound value, by `not` and `if`; the items, by
 * `contains`; the names, by `propertyNames`) and in the check of a default, it counts nothing.
 */
export function compileSchema(tool: string, schema: PublishedSchema): Validator {
  return new CodeGenerator(tool, schema).compile(schema, true, 'input');
}

type Refuser = (value: unknown, path: ArgumentPath, detail?: unknown) => Refusal;

class CodeGenerator implements Emitter {
  readonly #refs: unknown[] = [];
  readonly #functions: string[] = [];
  /**
   * The function made for each `$ref`, by the `$ref`: one for code that counts levels, one for code that does
   * not (none for a function made without a `$ref`).
   */
  readonly #refFunctions = { counting: new Map<string, string>(), reading: new Map<string, string>() };
  #vars = 0;

  constructor(
    readonly tool: string,
    readonly root: PublishedSchema,
    /** Schemas whose default is checked (or being checked), shared with the generators made for defaults. */
    readonly defaults = new Set<object>(),
    /** Whether the code being made counts levels (see the header): not where it reads values already checked. */
    private counting = true,
  ) {}

  compile(schema: unknown, root: boolean, at: string): Validator {
    const body = this.node(schema, { input: 'value', path: [], out: 'bound', at, root, depth: 0 });
    const locals = [`R = refs[0]`, ...this.#refs.map((_, i) => `r${i} = refs[${i + 1}]`)].join(', ');
    // Stryker disable next-line ConditionalExpression: equivalent, as code that counts nothing never reads `room`
    const room = this.counting ? `const room = ${MAX_INPUT_DEPTH};\n` : '';
    const source =
      `"use strict"; const ${locals};\n${statements(this.#functions)}\n` +
      `return function bind(value) {\n${room}let bound;\n${body}\nreturn bound;\n};`;
    return new Function('refs', source)([Refusal, ...this.#refs]) as Validator;
  }

  /** A value the generated code refers to as `rN`. */
  ref(value: unknown): string {
    this.#refs.push(value);
    return `r${this.#refs.length - 1}`;
  }

  literal(n: unknown): string {
    // Every number spliced into the code passes here; the schema's keyword checks let only finite ones through.
    if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${String(n)}`);
    return String(n);
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
    // Without a detail, the call passes `undefined`, as if it passed none.
    return `return ${this.refuser(code, expected, arrived)}(${site.input}, [${site.path}], ${detail});`;
  }

  /** The condition `value is not a JSON object`. */
  notAnObject(input: string): string {
    return `typeof ${input} !== "object" || ${input} === null || Array.isArray(${input})`;
  }

  /** Code that refuses the array or object at `site` when it is nested deeper than the input may go. */
  container(site: Site): string {
    if (!this.counting) return '';
    // The array or object at depth d is on level d + 1 of the function's value, which may have `room` levels.
    return `if (room <= ${site.depth}) return ${this.ref(tooDeep)}([${site.path}]);`;
  }

  /** Code that binds the value at `site` as sent, refused when it is nested deeper than the input may go. */
  keep(site: Site): string {
    const keep = `${site.out} = ${site.input};`;
    // Code that counts nothing keeps the value as it is. The check below would refuse nothing there either: such a
    // function is called with the value alone, so it has no room, and a walk with none never reaches an end.
    // Stryker disable next-line ConditionalExpression: equivalent, as said above (for any value no deeper than a stack)
    if (!this.counting) return keep;
    // Refused at the value itself: only its depth is known here; createCheck finds the place, walking the input.
    return `if (${this.ref(nestsBeyond)}(${this.args(site)})) return ${this.ref(tooDeep)}([${site.path}]);\n${keep}`;
  }

  /** The arguments of a function made here called on the value at `site`: the value, and its room if counted. */
  args(site: Site): string {
    if (!this.counting) return site.input;
    return `${site.input}, room - ${site.depth}`;
  }

  /**
   * A function of its own for `schema` (a `$ref` target or a union's alternative): `fN(value, room)`
   * returns the bound value or a refusal whose path starts at that value.
   */
  function(schema: unknown, at: string, root: boolean, key?: string): string {
    const made = this.counting ? this.#refFunctions.counting : this.#refFunctions.reading;
    const known = key === undefined ? undefined : made.get(key);
    if (known !== undefined) return known;
    const name = this.var('f');
    if (key !== undefined) made.set(key, name);
    const body = this.node(schema, { input: 'value', path: [], out: 'bound', at, root, depth: 0 });
    this.#functions.push(`function ${name}(value, room) {\nlet bound;\n${body}\nreturn bound;\n}`);
    return name;
  }

  /**
   * A function for a schema a value is only matched against (`contains`, `not`, `if`, `propertyNames`): only
   * whether it refuses is read, never the words of its refusal, so which words they would be does not matter.
   * It reads values already checked, and counts no levels: call it with the value alone.
   */
  matcher(schema: unknown, at: string): string {
    // Stryker disable next-line BooleanLiteral: equivalent, as no refusal of a matcher is ever worded
    return this.#reading(() => this.function(schema, at, false));
  }

  /** Code made by `make` that counts no levels (see the header). */
  #reading(make: () => string): string {
    const counting = this.counting;
    // A function made counting but called with the value alone has no room (undefined), so it refuses nothing either.
    // Stryker disable next-line BooleanLiteral: equivalent, as said above (for any value no deeper than a stack)
    this.counting = false;
    try {
      return make();
    } finally {
      this.counting = counting;
    }
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
    const check = `if (${result} instanceof R) { ${result}.under([${site.path}]); return ${result}; }`;
    return `const ${result} = ${fn}(${this.args(site)}); ${check}\n${site.out} = ${result};`;
  }

  /** Code that checks the value at `site` against `schema` and binds it to `site.out`, or returns a refusal. */
  node(schema: unknown, site: Site): string {
    if (schema === true || schema === undefined) return this.keep(site);
    if (schema === false) return this.refuse(site, 'not_a_known_value', describeExpectation(false));
    const node = schema as PublishedSchema;
    if (typeof node.$ref === 'string') {
      // The normaliser leaves only pointers into the schema itself: it resolves anchors and refuses the rest.
      const { tokens } = parseLocalRef(node.$ref) as { kind: 'pointer'; tokens: string[] };
      const fn = this.function(valueAtPointer(this.root, tokens), ['input', ...tokens].join('.'), site.root, node.$ref);
      return this.call(fn, site);
    }
    let code =
      Array.isArray(node.anyOf) || Array.isArray(node.oneOf) ? emitUnion(this, node, site) : this.#typed(node, site);
    code += this.#closedSet(node, site);
    code += this.#conditions(node, site);
    return code;
  }

  /** Checks by JSON type: one straight line for a node of one type (and null), a dispatch otherwise. */
  #typed(node: PublishedSchema, site: Site): string {
    const declared = typesOf(node);
    const expected = describeExpectation(node, this.root);
    const types = declared?.filter((t) => t !== 'null');
    const nullable = declared === undefined || declared.includes('null');
    if (types !== undefined && types.length === 1) {
      const code = this.#ofType(types[0]!, node, site, expected);
      return nullable ? `if (${site.input} === null) { ${site.out} = null; } else {\n${code}\n}` : code;
    }
    // Several types, only null, or none declared (any JSON value, with each keyword applying to its own type).
    const allows = (t: string) => types === undefined || types.includes(t as never);
    const branch = (condition: string, type: string) =>
      `if (${condition}) {\n${
        allows(type) ? this.#ofType(type, node, site, expected) : this.refuse(site, 'invalid_type', expected)
      }\n}`;
    const number = allows('number') ? 'number' : 'integer';
    return [
      branch(`typeof ${site.input} === "string"`, 'string'),
      branch(`typeof ${site.input} === "number"`, number),
      branch(`typeof ${site.input} === "boolean"`, 'boolean'),
      nullable
        ? `if (${site.input} === null) { ${site.out} = null; }`
        : `if (${site.input} === null) { ${this.refuse(site, 'invalid_type', expected)} }`,
      branch(`Array.isArray(${site.input})`, 'array'),
      branch('true', 'object'),
    ].join(' else ');
  }

  #ofType(type: string, node: PublishedSchema, site: Site, expected: string): string {
    switch (type) {
      case 'string':
        return emitString(this, node, site, expected);
      case 'integer':
      case 'number':
        return emitNumber(this, node, site, expected, type === 'integer');
      case 'boolean':
        return (
          `if (typeof ${site.input} !== "boolean") ${this.refuse(site, 'invalid_type', expected)}\n` +
          `${site.out} = ${site.input};`
        );
      case 'array':
        return emitArray(this, node, site, expected);
      default:
        return emitObject(this, node, site);
    }
  }

  /** `enum` and `const`: scalars by identity, arrays and objects by their JSON. */
  #closedSet(node: PublishedSchema, site: Site): string {
    const allowed: unknown[] | undefined =
      'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
    if (allowed === undefined) return '';
    const expected = describeExpectation(node, this.root);
    const refuse = this.refuse(site, 'not_a_known_value', expected);
    // Scalars by identity is the fast path: every scalar a type check lets through compares the same by its JSON.
    // Stryker disable next-line ConditionalExpression,ArrowFunction: equivalent, as the JSON path answers the same
    if (allowed.every((v) => !isPlainObject(v) && !Array.isArray(v)))
      return `\nif (!${this.ref(new Set(allowed))}.has(${site.input})) ${refuse}`;
    const texts = new Set(allowed.map((v) => canonicalJson(v)));
    const isAllowed = (value: unknown) => texts.has(canonicalJson(value));
    return `\nif (!${this.ref(isAllowed)}(${site.input})) ${refuse}`;
  }

  /**
   * `not` and `if`/`then`/`else`: checks only; the bound value stays what the node's other keywords
   * made it. They read the bound value, so a null standing for an absent member is absent to them too.
   */
  #conditions(node: PublishedSchema, site: Site): string {
    const lines: string[] = [];
    if ('not' in node) {
      const fn = this.matcher(node.not, `${site.at}.not`);
      const expected = `anything but ${describeExpectation(node.not, this.root)}`;
      lines.push(`if (!(${fn}(${site.out}) instanceof R)) ${this.refuse(site, 'not_a_known_value', expected)}`);
    }
    // An `if` without `then` or `else` asks nothing: a branch not there is the schema `true`, which takes any value.
    // Stryker disable next-line ConditionalExpression: equivalent, as an absent `if` compiled as `true` asks nothing
    if ('if' in node) {
      const test = this.matcher(node.if, `${site.at}.if`);
      const branch = (keyword: 'then' | 'else') => {
        const fn = this.#reading(() => this.function(node[keyword], `${site.at}.${keyword}`, site.root));
        const result = this.var('c');
        return (
          `const ${result} = ${fn}(${site.out}); ` +
          `if (${result} instanceof R) { ${result}.under([${site.path}]); return ${result}; }`
        );
      };
      lines.push(`if (!(${test}(${site.out}) instanceof R)) { ${branch('then')} } else { ${branch('else')} }`);
    }
    return lines.map((line) => `\n${line}`).join('');
  }

  /** A default must pass its own schema: checked once, here, with a validator of its own. */
  checkDefault(schema: PublishedSchema, at: string): void {
    // A recursive schema reaches its own defaults again: each is checked once.
    if (this.defaults.has(schema)) return;
    this.defaults.add(schema);
    // Stryker disable next-line BooleanLiteral: equivalent, as the root flag words only the error's message
    const validate = new CodeGenerator(this.tool, this.root, this.defaults, false).compile(schema, false, at);
    const result = validate(schema.default);
    if (result instanceof Refusal) {
      throw new ToolDeclarationError(
        'invalid_default',
        this.tool,
        `${at}.default`,
        `Tool '${this.tool}' has a default at ${at}.default that its own schema refuses: it must be ` +
          `${result.expected}, but ${result.arrived}.`,
      );
    }
  }
}
