import { isPlainObject } from '../../json/jsonValue.js';
import type { PublishedSchema } from '../schema/publishedSchema.js';
import { acceptsNull } from '../schema/schemaFacts.js';
import { compileLinearPattern, type UnsupportedPattern } from '../schema/linearPattern.js';
import { type Emitter, type Site, statements } from './emitter.js';
import { describeExpectation } from './expectation.js';

/**
 * Code for an object: declared properties bound by name (defaults applied, a null where the
 * schema takes no null counting as absent), then every other key, in the order sent: bound
 * through `patternProperties` or `additionalProperties`, kept as sent where the schema allows
 * any, refused as unknown where it allows none.
 */
export function emitObject(gen: Emitter, node: PublishedSchema, site: Site): string {
  const { input, path, out, at, root, depth } = site;
  const properties = Object.entries((node.properties as Record<string, unknown> | undefined) ?? {});
  const required = new Set((node.required as string[] | undefined) ?? []);
  const patterns = Object.entries((node.patternProperties as Record<string, unknown> | undefined) ?? {});
  const additional = node.additionalProperties;
  const expected = root ? 'an object of named arguments' : describeExpectation(node, gen.root);
  const lines = [`if (${gen.notAnObject(input)}) ${gen.refuse(site, 'invalid_type', expected)}`];
  lines.push(...memberCount(gen, node, site, expected));
  const freeForm =
    properties.length === 0 && patterns.length === 0 && (additional === undefined || additional === true);
  if (freeForm && !('propertyNames' in node) && !('dependentRequired' in node) && required.size === 0) {
    lines.push(gen.keep(site));
    return statements(lines);
  }
  lines.push(gen.container(site));
  // The bound object's members: those always there (required, or with a default), then the optional ones sent.
  const present: string[] = [];
  const optional: { name: string; bound: string }[] = [];
  for (const [key, schema] of properties) {
    const name = JSON.stringify(key);
    const raw = gen.var('p');
    const bound = gen.var('b');
    const member: Site = {
      input: raw,
      path: [...path, name],
      out: bound,
      at: `${at}.properties.${key}`,
      root: false,
      depth: depth + 1,
    };
    // A key Object.prototype also has ('constructor', 'toString') must be an own property.
    const read =
      key in Object.prototype
        ? `(Object.hasOwn(${input}, ${name}) ? ${input}[${name}] : undefined)`
        : `${input}[${name}]`;
    const hasDefault = isPlainObject(schema) && 'default' in schema;
    // null stands for "absent" unless the schema takes null as a value of its own, and then
    // still where a default is declared (pydantic's `x: str | None = None`).
    const nullIsAbsent = hasDefault || !acceptsNull(gen.root, schema);
    lines.push(
      `const ${raw} = ${read}; let ${bound};`,
      `if (${nullIsAbsent ? `${raw} == null` : `${raw} === undefined`}) {`,
    );
    if (hasDefault) {
      gen.checkDefault(schema as PublishedSchema, member.at);
      const value = (schema as PublishedSchema).default;
      // Each call gets its own copy of an object or array default. structuredClone gives null back as it is, and
      // any scalar: cloning them too would bind the same values, only slower (a null default is common, pydantic's
      // `x: str | None = None`, and a structured clone costs more than the rest of a small input's check).
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, a scalar's structured clone is it
      const copy = typeof value === 'object' && value !== null ? `structuredClone(${gen.ref(value)})` : gen.ref(value);
      lines.push(`${bound} = ${copy};`);
    } else if (required.has(key)) {
      const missing = gen.refuser('required', describeExpectation(schema, gen.root), (v) =>
        v === null ? 'it was null, which counts as missing' : 'it was missing',
      );
      lines.push(`return ${missing}(${raw}, [${member.path}]);`);
    }
    lines.push('} else {', gen.node(schema, member), '}');
    if (hasDefault || required.has(key)) present.push(`${name}: ${bound}`);
    else optional.push({ name, bound });
  }
  // A name required but not declared (JSON Schema allows it where other keys are allowed) must be there.
  const otherwise = typeof additional === 'object' ? describeExpectation(additional, gen.root) : 'a value';
  for (const key of required) {
    if (properties.some(([k]) => k === key)) continue;
    const name = JSON.stringify(key);
    const missing = gen.refuser('required', otherwise, () => 'it was missing');
    lines.push(`if (!Object.hasOwn(${input}, ${name})) return ${missing}(undefined, [${[...path, name]}]);`);
  }
  lines.push(boundObject(out, present, optional));
  lines.push(
    ...otherKeys(
      gen,
      node,
      site,
      properties.map(([k]) => k),
      patterns,
    ),
  );
  // Read on the bound object: a null standing for an absent member is absent here too.
  lines.push(...dependencies(gen, node, site));
  return statements(lines);
}

/**
 * Code that makes the bound object: its members always there, then each optional one sent, in the order declared.
 * When every optional member was sent, one object literal makes it, with all its members: V8 then makes it in one
 * allocation, where a member added later needs another (an object literal has room for its own members only).
 */
function boundObject(out: string, present: string[], optional: { name: string; bound: string }[]): string {
  const always = `${out} = { ${present.join(', ')} };`;
  if (optional.length === 0) return always;
  const each = optional.map(({ name, bound }) => `if (${bound} !== undefined) ${out}[${name}] = ${bound};`);
  const all = optional.map(({ bound }) => `${bound} !== undefined`).join(' && ');
  const whole = [...present, ...optional.map(({ name, bound }) => `${name}: ${bound}`)].join(', ');
  return `if (${all}) ${out} = { ${whole} };\nelse {\n${statements([always, ...each])}\n}`;
}

/** Every key not declared by name, in the order sent: checked, bound and kept, or refused. */
function otherKeys(
  gen: Emitter,
  node: PublishedSchema,
  site: Site,
  declared: string[],
  patterns: [string, unknown][],
): string[] {
  const { input, path, out, at, root } = site;
  const additional = node.additionalProperties;
  const key = gen.var('k');
  const known = declared.length === 0 ? 'false' : declared.map((k) => `${key} === ${JSON.stringify(k)}`).join(' || ');
  const allowed = allowedKeysPhrase(declared, patterns, root);
  const lines: string[] = [];
  // Stryker disable next-line ConditionalExpression: equivalent, as no propertyNames compiled as `true` takes any name
  if ('propertyNames' in node) {
    // Stryker disable next-line StringLiteral: equivalent, as the place only words a matcher's refusal, never read
    const check = gen.matcher(node.propertyNames, `${at}.propertyNames`);
    // Names are strings: the schema is described as one, whatever it says of its type.
    const names = node.propertyNames;
    const asString = isPlainObject(names) ? { type: 'string', ...names } : names;
    const expected = `${root ? 'argument' : 'member'} names must be ${describeExpectation(asString, gen.root)}`;
    // What arrived is the key itself, which the message names (or, for a client outside, leaves out).
    const refuse = gen.refuser('unknown_argument', expected);
    lines.push(
      `for (const ${key} in ${input}) {\n` +
        `if (${check}(${key}) instanceof R) return ${refuse}(undefined, [${[...path, key]}]);\n}`,
    );
  }
  const value = gen.var('v');
  const bound = gen.var('x');
  const member = (where: string): Site => ({
    input: value,
    path: [...path, key],
    out: bound,
    at: where,
    root: false,
    depth: site.depth + 1,
  });
  const matched = gen.var('m');
  const body: string[] = [`const ${value} = ${input}[${key}]; let ${bound}; let ${matched} = false;`];
  for (const [pattern, schema] of patterns) {
    // The schema's keyword checks refuse, when the tool is defined, a pattern that cannot run in linear time.
    const test = compileLinearPattern(pattern) as Exclude<ReturnType<typeof compileLinearPattern>, UnsupportedPattern>;
    const first = gen.var('f');
    const each = gen.var('y');
    body.push(`if (${gen.ref(test)}.test(${key})) {`, `const ${first} = !${matched}; ${matched} = true; let ${each};`);
    body.push(
      gen.node(schema, { ...member(`${at}.patternProperties.${pattern}`), out: each }),
      `if (${first}) ${bound} = ${each};`,
      '}',
    );
  }
  if (additional === false) {
    body.push(`if (!${matched}) return ${gen.refuser('unknown_argument', allowed)}(undefined, [${[...path, key]}]);`);
  } else {
    // A schema, or none: any value (the code for `true` and for no schema keeps the value as sent).
    body.push(`if (!${matched}) {`, gen.node(additional, member(`${at}.additionalProperties`)), '}');
  }
  body.push(`${gen.ref(setOwn)}(${out}, ${key}, ${bound});`);
  lines.push(`for (const ${key} in ${input}) { if (${known}) continue;\n${statements(body)}\n}`);
  return lines;
}

/** The keys an object takes, in words: `its arguments are 'a', 'b', and names matching ^x_`, `it has no members`. */
function allowedKeysPhrase(declared: string[], patterns: [string, unknown][], root: boolean): string {
  const named = declared.map((k) => `'${k}'`).join(', ');
  const matching = patterns.map(([p]) => `names matching ${p}`).join(', ');
  const list = [named, matching].filter(Boolean).join(', and ');
  if (list === '') return root ? 'it takes no arguments' : 'it has no members';
  const noun = root ? 'arguments' : 'members';
  return `its ${noun} are ${list}`;
}

function memberCount(gen: Emitter, node: PublishedSchema, site: Site, expected: string): string[] {
  const lines: string[] = [];
  const count = (_v: unknown, n: unknown) => `it had ${String(n)} member${n === 1 ? '' : 's'}`;
  const size = `Object.keys(${site.input}).length`;
  const { minProperties: min, maxProperties: max } = node;
  if (typeof min === 'number')
    lines.push(`if (${size} < ${gen.literal(min)}) ${gen.refuse(site, 'too_short', expected, count, size)}`);
  if (typeof max === 'number')
    lines.push(`if (${size} > ${gen.literal(max)}) ${gen.refuse(site, 'too_long', expected, count, size)}`);
  return lines;
}

function dependencies(gen: Emitter, node: PublishedSchema, site: Site): string[] {
  const lines: string[] = [];
  // A member not declared is described as any other undeclared one: `a value`.
  const declared = new Map(Object.entries((node.properties as Record<string, unknown> | undefined) ?? {}));
  for (const [name, needed] of Object.entries((node.dependentRequired as Record<string, string[]> | undefined) ?? {})) {
    for (const other of needed) {
      const expected = describeExpectation(declared.get(other), gen.root);
      const why = `it was missing (it is required when '${name}' is given)`;
      const missing = gen.refuser('required', expected, () => why);
      const [has, needs] = [JSON.stringify(name), JSON.stringify(other)];
      lines.push(
        `if (Object.hasOwn(${site.out}, ${has}) && !Object.hasOwn(${site.out}, ${needs})) ` +
          `return ${missing}(undefined, [${[...site.path, needs]}]);`,
      );
    }
  }
  return lines;
}

/** Sets a key as an own data property, `__proto__` included, so no key reaches a prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // For any other key, assignment makes the same own, enumerable, writable, configurable property: the key is not yet
  // on the target (declared keys are skipped, and `for...in` gives each once) and no other name is an accessor of
  // Object.prototype.
  // Stryker disable next-line ConditionalExpression: defining every key, not only __proto__, binds the same object
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
