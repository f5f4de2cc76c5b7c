/**
 * JSON Schema 2020-12 as a tool's input may write it, and the static type of the arguments it describes.
 *
 * The types accept any real schema: every keyword legate checks is typed (so `minLength: '3'` is caught),
 * and any other keyword (`title`, `x-*`, `discriminator`, ...) passes as an annotation. Whether a schema
 * is usable is decided when the tool is defined, not here: `defineTool` lists every construct it refuses.
 */

/** Any JSON value: what `const`, `enum` and `default` may hold. */
type JsonSchemaValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonSchemaValue[]
  | { readonly [key: string]: JsonSchemaValue };

/** The seven JSON Schema types (`integer` being a number with no fraction). */
type JsonTypeName = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

/** A schema: an object of keywords, or `true` (anything) / `false` (nothing). */
export type JsonSchema = boolean | JsonSchemaNode;

type Schemas = readonly JsonSchema[];
type SchemaMap = { readonly [name: string]: JsonSchema };

/** One schema object. Keywords not listed here are annotations, passed to the model untouched. */
interface JsonSchemaNode {
  readonly type?: JsonTypeName | readonly JsonTypeName[];
  readonly enum?: readonly JsonSchemaValue[];
  readonly const?: JsonSchemaValue;
  readonly default?: JsonSchemaValue;
  readonly description?: string;
  readonly title?: string;
  readonly examples?: readonly JsonSchemaValue[];
  // Numbers. Draft-04's boolean exclusiveMinimum/exclusiveMaximum is converted to the numeric form.
  readonly multipleOf?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number | boolean;
  readonly exclusiveMaximum?: number | boolean;
  // Strings.
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  // Arrays. Draft-07's tuple `items: [A, B]` and `additionalItems` are converted to prefixItems/items.
  readonly items?: JsonSchema | Schemas;
  readonly prefixItems?: Schemas;
  readonly additionalItems?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly contains?: JsonSchema;
  readonly minContains?: number;
  readonly maxContains?: number;
  // Objects.
  readonly properties?: SchemaMap;
  readonly required?: readonly string[];
  readonly additionalProperties?: JsonSchema;
  readonly patternProperties?: SchemaMap;
  readonly propertyNames?: JsonSchema;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly dependentRequired?: { readonly [name: string]: readonly string[] };
  // Combinations and references.
  readonly anyOf?: Schemas;
  readonly oneOf?: Schemas;
  readonly allOf?: Schemas;
  readonly not?: JsonSchema;
  readonly if?: JsonSchema;
  readonly then?: JsonSchema;
  readonly else?: JsonSchema;
  readonly $ref?: string;
  readonly $defs?: SchemaMap;
  readonly definitions?: SchemaMap;
  /** OpenAPI 3.0's spelling of "or null"; converted to JSON Schema. */
  readonly nullable?: boolean;
  readonly [keyword: string]: unknown;
}

/**
 * A tool's input schema: a schema for an object. `type` may be left out where the root is a `$ref`
 * or a union of objects (legate adds `type: 'object'`). A schema loaded from a JSON file, typed
 * `Record<string, unknown>`, is accepted too; `defineTool` checks it.
 */
export type JsonObjectSchema = JsonSchemaNode & { readonly type?: 'object' };

/**
 * The static type of a value a schema accepts, after the binder applied defaults: defaulted properties
 * are present. Unions (`anyOf`, `oneOf`, a `type` array) give a union, `allOf` an intersection, `prefixItems`
 * a tuple, `additionalProperties`/`patternProperties` an index signature, an object with none of
 * `properties`, `patternProperties` or `additionalProperties` `Record<string, unknown>`.
 *
 * A `$ref` gives `unknown`: following references through `$defs` at the type level is not attempted
 * (recursive ones could not end). Narrow such a value yourself, or declare the input with zod, whose
 * output type is exact. `not` and `if`/`then`/`else` only refuse values, so they change no type.
 */
export type InferJsonSchema<S> = S extends true
  ? unknown
  : S extends false
    ? never
    : S extends { readonly const: infer C }
      ? C
      : S extends { readonly enum: readonly (infer E)[] }
        ? E
        : S extends { readonly $ref: string }
          ? unknown
          : S extends { readonly nullable: true }
            ? InferJsonSchema<Omit<S, 'nullable'>> | null
            : S extends { readonly allOf: infer Parts }
              ? InferJsonSchema<Omit<S, 'allOf'>> & InferAll<Parts>
              : S extends { readonly anyOf: infer Alternatives }
                ? InferAlternatives<Alternatives, Omit<S, 'anyOf'>>
                : S extends { readonly oneOf: infer Alternatives }
                  ? InferAlternatives<Alternatives, Omit<S, 'oneOf'>>
                  : S extends { readonly type: readonly (infer T)[] }
                    ? InferByType<T, S>
                    : S extends { readonly type: infer T }
                      ? InferByType<T, S>
                      : unknown;

/**
 * The arguments `run` receives for a JSON Schema input: an object. A schema whose type is not known
 * statically (`Record<string, unknown>`, `any`) gives `Record<string, unknown>`.
 */
export type InferToolArgs<S> = 0 extends 1 & S
  ? Record<string, unknown>
  : S extends { readonly type: 'object' }
    ? InferJsonSchema<S>
    : S extends { readonly $ref: string }
      ? Record<string, unknown>
      : InferJsonSchema<S & { readonly type: 'object' }>;

/** Each alternative with the union's own validation keywords merged in, as the published schema has them. */
type InferAlternatives<Alternatives, Siblings> = Alternatives extends readonly (infer A)[]
  ? A extends unknown
    ? InferJsonSchema<A extends boolean ? A : Merge<Siblings, A>>
    : never
  : unknown;

type InferAll<Parts> = Parts extends readonly [infer Head, ...infer Tail]
  ? InferJsonSchema<Head> & InferAll<Tail>
  : Parts extends readonly []
    ? unknown
    : Parts extends readonly (infer P)[]
      ? InferJsonSchema<P>
      : unknown;

/** The union node's keywords under the alternative's: `properties` joined, `required` added up. */
type Merge<S, A> = Omit<S, 'properties' | 'required' | 'default' | keyof A> &
  Omit<A, 'properties' | 'required'> &
  Joined<S, A, 'properties'> &
  Listed<S, A>;

type Joined<S, A, K extends string> = S extends { readonly [P in K]: infer X }
  ? A extends { readonly [P in K]: infer Y }
    ? { readonly [P in K]: X & Y }
    : { readonly [P in K]: X }
  : A extends { readonly [P in K]: infer Y }
    ? { readonly [P in K]: Y }
    : unknown;

type Listed<S, A> = [RequiredOf<S> | RequiredOf<A>] extends [never]
  ? unknown
  : { readonly required: readonly (RequiredOf<S> | RequiredOf<A>)[] };

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type InferByType<T, S> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? InferArray<S>
          : T extends 'object'
            ? InferObjectSchema<S>
            : unknown;

type InferArray<S> = S extends { readonly prefixItems: infer P extends readonly unknown[] }
  ? Tuple<P, MinItems<S>, S extends { readonly items: infer I } ? I : true>
  : S extends { readonly items: infer P extends readonly unknown[] }
    ? Tuple<P, MinItems<S>, S extends { readonly additionalItems: infer I } ? I : true>
    : S extends { readonly items: infer I }
      ? InferJsonSchema<I>[]
      : unknown[];

type MinItems<S> = S extends { readonly minItems: infer N extends number } ? N : 0;

/** `prefixItems` as a tuple: the first `minItems` present, the rest optional, then the `items` rest. */
type Tuple<P extends readonly unknown[], Min extends number, Rest> = [
  ...Prefix<P, Min>,
  ...(Rest extends false ? [] : InferJsonSchema<Rest>[]),
];

type Prefix<P extends readonly unknown[], Min extends number, Done extends unknown[] = []> = P extends readonly [
  infer Head,
  ...infer Tail,
]
  ? Done['length'] extends Min
    ? [...Done, ...Partial<InferEach<P>>]
    : Prefix<Tail, Min, [...Done, InferJsonSchema<Head>]>
  : Done;

type InferEach<P extends readonly unknown[]> = { -readonly [K in keyof P]: InferJsonSchema<P[K]> };

type InferObjectSchema<S> = S extends { readonly properties: infer P }
  ? Simplify<InferObject<P, RequiredOf<S>>> & Extra<S>
  : S extends { readonly patternProperties: unknown } | { readonly additionalProperties: unknown }
    ? Extra<S>
    : Record<string, unknown>;

/** Keys beyond the declared properties: from `additionalProperties` and `patternProperties`. */
type Extra<S> = [ExtraValue<S>] extends [never] ? unknown : Record<string, ExtraValue<S>>;

type ExtraValue<S> =
  | (S extends { readonly additionalProperties: infer A } ? (A extends false ? never : InferJsonSchema<A>) : never)
  | (S extends { readonly patternProperties: infer P } ? { [K in keyof P]: InferJsonSchema<P[K]> }[keyof P] : never);

/** Required and defaulted properties are always present; the others may be absent. */
type InferObject<P, R> = {
  -readonly [K in keyof P as K extends R ? K : P[K] extends { default: unknown } ? K : never]: InferJsonSchema<P[K]>;
} & {
  -readonly [K in keyof P as K extends R ? never : P[K] extends { default: unknown } ? never : K]?: InferJsonSchema<
    P[K]
  >;
};

type Simplify<T> = { [K in keyof T]: T[K] } & {};
