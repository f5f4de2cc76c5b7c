import { ToolDeclarationError } from '../declarationError.js';
import { FORMAT_CHECKS } from '../schema/formats.js';
import { compileLinearPattern, UnsupportedPattern } from '../schema/linearPattern.js';
import type { PublishedSchema } from '../schema/prepareSchema.js';
import { describeExpectation } from './expectation.js';
import { isMultipleOf } from './isMultipleOf.js';
import { Refusal, valueArrived, type ArgumentPath, type InvalidArgumentCode } from './invalidArgument.js';

/**
 * A compiled check for a tool's input: returns the bound value (defaults applied, nulls
 * standing for absence dropped) or a {@link Refusal}. It never throws.
 */
export type Validator = (value: unknown) => unknown;

/**
 * Compiles a published schema into one JavaScript function, once, when the tool is defined,
 * the way ajv does: straight-line checks over named property reads and an object literal for
 * the bound arguments, which V8 optimises far better than a tree of generic closures.
 *
 * Safety of the generated source: property names enter it only as JSON string literals, and
 * numbers only as finite numeric literals; patterns, sets, defaults and every message are
 * passed in as values (`r0`, `r1`, ...), never spliced into the code.
 */
export function compileSchema(tool: string, schema: PublishedSchema): Validator {
  return new CodeGenerator(tool).compile(schema, true);
}

type Refuser = (value: unknown, path: ArgumentPath, detail?: unknown) => Refusal;

class CodeGenerator {
  readonly #refs: unknown[] = [];
  #vars = 0;

  constructor(readonly tool: string) {}

  compile(schema: PublishedSchema, root: boolean, declarationPath = 'input'): Validator {
    const body = root
      ? this.#object(schema, 'value', [], 'bound', declarationPath, true)
      : this.#node(schema, 'value', [], 'bound', declarationPath);
    const locals = this.#refs.map((_, i) => `r${i} = refs[${i}]`).join(', ');
    const declarations = locals === '' ? '' : ` const ${locals};`;
    const source =
      `"use strict";${declarations}\n` + `return function bind(value) {\nlet bound;\n${body}\nreturn bound;\n};`;
    return new Function('refs', source)(this.#refs) as Validator;
  }

  /** A value the generated code refers to as `rN`. */
  #ref(value: unknown): string {
    this.#refs.push(value);
    return `r${this.#refs.length - 1}`;
  }

  #var(prefix: string): string {
    return `${prefix}${this.#vars++}`;
  }

  #refuser(
    code: InvalidArgumentCode,
    expected: string,
    arrived: (value: unknown, detail: unknown) => string = valueArrived,
  ): string {
    const refuse: Refuser = (value, path, detail) => new Refusal(code, expected, arrived(value, detail)).withPath(path);
    return this.#ref(refuse);
  }

  /** Code that checks `input` against `schema` and assigns the bound value to `out`, or returns a refusal. */
  #node(schema: PublishedSchema, input: string, path: string[], out: string, at: string): string {
    const expected = describeExpectation(schema);
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    let code: string;
    switch (type) {
      case 'string':
        code = this.#string(schema, input, path, out, expected);
        break;
      case 'integer':
      case 'number':
        code = this.#number(schema, input, path, out, expected, type === 'integer');
        break;
      case 'boolean':
        code =
          `if (typeof ${input} !== "boolean") ` +
          `return ${this.#refuser('invalid_type', expected)}(${input}, [${path}]);\n${out} = ${input};`;
        break;
      case 'array':
        code = this.#array(schema, input, path, out, expected, at);
        break;
      case 'object':
        code = this.#object(schema, input, path, out, at, false);
        break;
      default:
        code = `${out} = ${input};`; // a bare enum or const: the closed set decides
    }
    code += this.#closedSet(schema, out, path, expected);
    // ['T', 'null']: null is a value of its own here, not an absence.
    return Array.isArray(schema.type) ? `if (${input} === null) { ${out} = null; } else {\n${code}\n}` : code;
  }

  #closedSet(schema: PublishedSchema, value: string, path: string[], expected: string): string {
    const allowed: unknown[] | undefined =
      'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
    if (allowed === undefined) return '';
    return (
      `\nif (!${this.#ref(new Set(allowed))}.has(${value})) return ` +
      `${this.#refuser('not_a_known_value', expected)}(${value}, [${path}]);`
    );
  }

  #string(schema: PublishedSchema, input: string, path: string[], out: string, expected: string): string {
    const lines = [
      `if (typeof ${input} !== "string") return ${this.#refuser('invalid_type', expected)}(${input}, [${path}]);`,
    ];
    const min = schema.minLength as number | undefined;
    const max = schema.maxLength as number | undefined;
    if (min !== undefined || max !== undefined) {
      // A string's UTF-16 length bounds its character count: between length / 2 and length.
      // Only a string near a bound needs its characters counted.
      const near = [
        max !== undefined ? `${input}.length > ${max}` : '',
        min !== undefined ? `${input}.length < ${min * 2}` : '',
      ]
        .filter(Boolean)
        .join(' || ');
      const count = this.#var('n');
      const withLength = (v: unknown, n: unknown) => `${valueArrived(v)} (${String(n)} character${n === 1 ? '' : 's'})`;
      lines.push(`if (${near}) {`, `const ${count} = ${this.#ref(countCharacters)}(${input});`);
      if (max !== undefined)
        lines.push(
          `if (${count} > ${max}) return ${this.#refuser('too_long', expected, withLength)}(${input}, [${path}], ` +
            `${count});`,
        );
      if (min !== undefined)
        lines.push(
          `if (${count} < ${min}) return ${this.#refuser('too_short', expected, withLength)}(${input}, [${path}], ` +
            `${count});`,
        );
      lines.push('}');
    }
    if (typeof schema.pattern === 'string') {
      // Checked in linear time: a pattern such as ^(a+)+$ cannot stall the run. The only
      // patterns that cannot run so are zod's own format patterns, which zod's step checks.
      const pattern = compileLinearPattern(schema.pattern);
      if (!(pattern instanceof UnsupportedPattern)) {
        lines.push(
          `if (!${this.#ref(pattern)}.test(${input})) return ${this.#refuser('invalid_format', expected)}(${input}, ` +
            `[${path}]);`,
        );
      }
    }
    const format = typeof schema.format === 'string' ? FORMAT_CHECKS.get(schema.format) : undefined;
    if (format !== undefined)
      lines.push(
        `if (!${this.#ref(format)}(${input})) ` +
          `return ${this.#refuser('invalid_format', expected)}(${input}, [${path}]);`,
      );
    lines.push(`${out} = ${input};`);
    return lines.join('\n');
  }

  #number(
    schema: PublishedSchema,
    input: string,
    path: string[],
    out: string,
    expected: string,
    integer: boolean,
  ): string {
    const limit = integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
    const bound = (n: unknown, fallback: number, pick: (a: number, b: number) => number) =>
      literal(pick(typeof n === 'number' ? n : fallback, fallback));
    const conditions = [
      `${input} >= ${bound(schema.minimum, -limit, Math.max)}`,
      `${input} <= ${bound(schema.maximum, limit, Math.min)}`,
      typeof schema.exclusiveMinimum === 'number' ? `${input} > ${literal(schema.exclusiveMinimum)}` : '',
      typeof schema.exclusiveMaximum === 'number' ? `${input} < ${literal(schema.exclusiveMaximum)}` : '',
    ].filter(Boolean);
    const hint = (v: unknown) => {
      const arrived = valueArrived(v);
      const numeric = typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));
      return numeric ? `${arrived}; send the number itself, not a string` : arrived;
    };
    const outOfRange = this.#refuser('out_of_range', expected);
    const lines = [
      `if (typeof ${input} !== "number") return ${this.#refuser('invalid_type', expected, hint)}(${input}, [${path}]);`,
      // NaN fails every comparison, so it is refused here too: never saturated.
      `if (!(${conditions.join(' && ')})) return ${outOfRange}(${input}, [${path}]);`,
    ];
    if (integer)
      lines.push(
        `if (!Number.isInteger(${input})) return ${this.#refuser('invalid_type', expected)}(${input}, [${path}]);`,
      );
    if (typeof schema.multipleOf === 'number') {
      lines.push(
        `if (!${this.#ref(isMultipleOf)}(${input}, ${literal(schema.multipleOf)})) return ${outOfRange}(${input}, ` +
          `[${path}]);`,
      );
    }
    lines.push(`${out} = ${input};`);
    return lines.join('\n');
  }

  #array(schema: PublishedSchema, input: string, path: string[], out: string, expected: string, at: string): string {
    const items = this.#var('a');
    const index = this.#var('i');
    const item = this.#var('e');
    const boundItem = this.#var('b');
    const count = (_v: unknown, n: unknown) => `it had ${String(n)} item${n === 1 ? '' : 's'}`;
    const lines = [
      `if (!Array.isArray(${input})) return ${this.#refuser('invalid_type', expected)}(${input}, [${path}]);`,
    ];
    if (typeof schema.minItems === 'number')
      lines.push(
        `if (${input}.length < ${schema.minItems}) return ${this.#refuser('too_short', expected, count)}(${input}, ` +
          `[${path}], ${input}.length);`,
      );
    if (typeof schema.maxItems === 'number')
      lines.push(
        `if (${input}.length > ${schema.maxItems}) return ${this.#refuser('too_long', expected, count)}(${input}, ` +
          `[${path}], ${input}.length);`,
      );
    lines.push(
      `const ${items} = new Array(${input}.length);`,
      `for (let ${index} = 0; ${index} < ${input}.length; ${index}++) {`,
      `const ${item} = ${input}[${index}]; let ${boundItem};`,
      this.#node(schema.items as PublishedSchema, item, [...path, index], boundItem, `${at}.items`),
      `${items}[${index}] = ${boundItem};`,
      '}',
      `${out} = ${items};`,
    );
    return lines.join('\n');
  }

  #object(schema: PublishedSchema, input: string, path: string[], out: string, at: string, root: boolean): string {
    const properties = Object.entries((schema.properties as Record<string, PublishedSchema> | undefined) ?? {});
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const names = properties.map(([key]) => `'${key}'`).join(', ');
    const allowed = root
      ? properties.length === 0
        ? 'it takes no arguments'
        : `its arguments are ${names}`
      : properties.length === 0
        ? 'it has no members'
        : `its members are ${names}`;
    const expected = root ? 'an object of named arguments' : describeExpectation(schema);
    const lines = [
      `if (typeof ${input} !== "object" || ${input} === null || Array.isArray(${input})) return ` +
        `${this.#refuser('invalid_type', expected)}(${input}, [${path}]);`,
    ];
    const present: string[] = [];
    const optional: string[] = [];
    for (const [key, propertySchema] of properties) {
      const name = JSON.stringify(key);
      const raw = this.#var('p');
      const boundVar = this.#var('b');
      const propertyPath = [...path, name];
      const propertyAt = `${at}.properties.${key}`;
      // A key Object.prototype also has ('constructor', 'toString') must be an own property.
      const read =
        key in Object.prototype
          ? `(Object.hasOwn(${input}, ${name}) ? ${input}[${name}] : undefined)`
          : `${input}[${name}]`;
      const absent = acceptsNull(propertySchema) ? `${raw} === undefined` : `(${raw} === undefined || ${raw} === null)`;
      lines.push(`const ${raw} = ${read}; let ${boundVar};`, `if (${absent}) {`);
      if ('default' in propertySchema) {
        this.#checkDefault(propertySchema, propertyAt);
        const value = propertySchema.default;
        lines.push(
          typeof value === 'object' && value !== null
            ? `${boundVar} = structuredClone(${this.#ref(value)});`
            : `${boundVar} = ${this.#ref(value)};`,
        );
      } else if (required.has(key)) {
        const missing = this.#refuser('required', describeExpectation(propertySchema), (v) =>
          v === null ? 'it was null, which counts as missing' : 'it was missing',
        );
        lines.push(`return ${missing}(${raw}, [${propertyPath}]);`);
      }
      lines.push('} else {', this.#node(propertySchema, raw, propertyPath, boundVar, propertyAt), '}');
      if ('default' in propertySchema || required.has(key)) present.push(`${name}: ${boundVar}`);
      else optional.push(`if (${boundVar} !== undefined) ${out}[${name}] = ${boundVar};`);
    }
    // Unknown arguments are reported after every declared one, in the order they were sent.
    const key = this.#var('k');
    const known =
      properties.length === 0 ? 'false' : properties.map(([k]) => `${key} === ${JSON.stringify(k)}`).join(' || ');
    const unknown = this.#refuser('unknown_argument', allowed, () => '');
    lines.push(
      `for (const ${key} in ${input}) { if (!(${known})) return ${unknown}(undefined, [${[...path, key]}]); }`,
      `${out} = { ${present.join(', ')} };`,
      ...optional,
    );
    return lines.join('\n');
  }

  /** A default must pass its own schema: checked once, here, with a validator of its own. */
  #checkDefault(schema: PublishedSchema, at: string): void {
    const validate = new CodeGenerator(this.tool).compile(schema, false, at);
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

/** A finite number as a JavaScript literal. */
function literal(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  return Object.is(n, -0) ? '0' : String(n);
}

function acceptsNull(schema: PublishedSchema): boolean {
  return (
    Array.isArray(schema.type) || schema.const === null || (Array.isArray(schema.enum) && schema.enum.includes(null))
  );
}

/** Characters as JSON Schema counts them: code points, a surrogate pair counting once. */
function countCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
