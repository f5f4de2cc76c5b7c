import type { PublishedSchema } from '../schema/publishedSchema.js';
import { discriminatorOf, nullableAlternative, typesOf } from '../schema/schemaFacts.js';
import { takingNull } from '../schema/takingNull.js';
import { type Emitter, type Site, statements } from './emitter.js';
import { describeAlternative, describeExpectation } from './expectation.js';
import { Refusal, valueArrived } from './invalidArgument.js';

type Alternative = (value: unknown, room?: number) => unknown;

/**
 * Code for `anyOf` / `oneOf`. Three shapes, fastest first: the nullable idiom (`[T, null]`) as
 * T or null; a discriminated union (a required `const`/`enum` property tells the alternatives
 * apart) as a switch on that property, refused there by name when it is missing or unknown;
 * any other union by trying each alternative (a function of its own), refusing with the
 * alternative that came closest when none matches.
 */
export function emitUnion(gen: Emitter, node: PublishedSchema, site: Site): string {
  const { input, out } = site;
  const nullable = nullableAlternative(node);
  if (nullable !== undefined) {
    // A node of one type is checked as `type: [T, 'null']`, so its messages say "..., or null". A `$ref` or a union
    // has no type of its own here (the normaliser moves one into the target or the alternatives), nor has `true`.
    const types = typesOf(nullable as PublishedSchema);
    // A `null` alternative takes null and nothing else either way: the second check only keeps its words from
    // saying "null, or null".
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent in behaviour, as said above
    if (types?.length === 1 && types[0] !== 'null') return gen.node(takingNull(nullable as PublishedSchema), site);
    return `if (${input} === null) { ${out} = null; } else {\n${gen.node(nullable, site)}\n}`;
  }
  const keyword = Array.isArray(node.anyOf) ? 'anyOf' : 'oneOf';
  const alternatives = node[keyword] as unknown[];
  const expected = describeExpectation(node, gen.root);
  const discriminator = discriminatorOf(gen.root, alternatives);
  if (discriminator !== undefined) {
    const { property, values } = discriminator;
    const name = JSON.stringify(property);
    const allowed = `one of ${[...values.keys()].map((v) => JSON.stringify(v)).join(', ')}`;
    const tag = gen.var('t');
    const chosen = gen.var('s');
    const tagPath = [...site.path, name];
    const missing = gen.refuser('required', allowed, (v) =>
      v === null ? 'it was null, which counts as missing' : 'it was missing',
    );
    const unknown = gen.refuser('not_a_known_value', allowed);
    const cases = alternatives.map(
      (alternative, i) =>
        `case ${i}: {\n${gen.node(alternative, { ...site, at: `${site.at}.${keyword}.${i}` })}\nbreak; }`,
    );
    return statements([
      `if (${gen.notAnObject(input)}) ${gen.refuse(site, 'invalid_type', expected)}`,
      `const ${tag} = Object.hasOwn(${input}, ${name}) ? ${input}[${name}] : undefined;`,
      `if (${tag} == null) return ${missing}(${tag}, [${tagPath}]);`,
      `const ${chosen} = ${gen.ref(values)}.get(${tag});`,
      `if (${chosen} === undefined) return ${unknown}(${tag}, [${tagPath}]);`,
      `switch (${chosen}) {\n${statements(cases)}\n}`,
    ]);
  }
  const functions = alternatives.map((alternative, i) =>
    gen.function(alternative, `${site.at}.${keyword}.${i}`, site.root),
  );
  const names = alternatives.map((alternative) => describeAlternative(alternative, gen.root));
  const match = keyword === 'anyOf' ? matchAny : matchOne;
  const result = gen.var('u');
  // The list of functions is made once, when the module is built.
  const list = gen.declare(`[${functions.join(', ')}]`);
  return (
    `const ${result} = ${gen.ref(match)}(${list}, ${gen.ref({ names, expected })}, ${gen.args(site)});\n` +
    `if (${result} instanceof R) { ${result}.under([${site.path}]); return ${result}; }\n${out} = ${result};`
  );
}

interface UnionWords {
  names: string[];
  expected: string;
}

/**
 * anyOf: the bound value of the first alternative that accepts the value, or the closest refusal. `room` is passed
 * on to each alternative (see compileSchema).
 */
function matchAny(alternatives: Alternative[], words: UnionWords, value: unknown, room?: number): unknown {
  const refusals: Refusal[] = [];
  for (const alternative of alternatives) {
    const result = alternative(value, room);
    if (!(result instanceof Refusal)) return result;
    refusals.push(result);
  }
  return closest(refusals, value, words);
}

/** oneOf: the bound value of the one alternative that accepts the value; refused when none or several do. */
function matchOne(alternatives: Alternative[], words: UnionWords, value: unknown, room?: number): unknown {
  const refusals: Refusal[] = [];
  const accepted: number[] = [];
  let bound: unknown;
  for (const [i, alternative] of alternatives.entries()) {
    const result = alternative(value, room);
    if (result instanceof Refusal) refusals.push(result);
    else {
      // Only read when exactly one accepted it.
      bound = result;
      accepted.push(i);
    }
  }
  if (accepted.length === 1) return bound;
  if (accepted.length === 0) return closest(refusals, value, words);
  const which = accepted.map((i) => words.names[i]).join(' and ');
  return new Refusal('ambiguous', words.expected, `${valueArrived(value)}, which is ${which}`);
}

/**
 * The refusal to report when no alternative matched: a plain type refusal when the value's type
 * fits none of them; otherwise the refusal of the alternative that got furthest into the value
 * (the longest path; the first on a tie), noting the union and that alternative.
 */
function closest(refusals: Refusal[], value: unknown, words: UnionWords): Refusal {
  let best = -1;
  for (const [i, refusal] of refusals.entries()) {
    // A refusal of the value's type itself says only that this alternative is about another type. (A refusal that
    // notes a union nested here is never one: the nested union picked a refusal that got further.)
    if (refusal.code === 'invalid_type' && refusal.path.length === 0) continue;
    if (best === -1 || refusal.path.length > refusals[best]!.path.length) best = i;
  }
  if (best === -1) return new Refusal('invalid_type', words.expected, valueArrived(value));
  const refusal = refusals[best]!;
  refusal.union ??= { alternatives: words.expected, closest: words.names[best]!, below: refusal.path.length };
  return refusal;
}
