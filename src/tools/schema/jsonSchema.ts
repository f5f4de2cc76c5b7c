/**
 * The part of JSON Schema a tool's input may use: the constructs the binder can check.
 * Other annotation keywords (title, examples, $comment, ...) are allowed and passed through.
 */

type Annotations = {
  readonly description?: string;
  readonly title?: string;
  readonly examples?: readonly unknown[];
  readonly default?: unknown;
  readonly [keyword: string]: unknown;
};

/** `'string'`, or `['string', 'null']` for a property that accepts null as a value of its own. */
type TypeOf<T extends string> = T | readonly [T, 'null'];

export type JsonStringSchema = Annotations & {
  readonly type: TypeOf<'string'>;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly format?: string;
  readonly enum?: readonly (string | null)[];
  readonly const?: string;
};

export type JsonNumberSchema = Annotations & {
  readonly type: TypeOf<'number'> | TypeOf<'integer'>;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly enum?: readonly (number | null)[];
  readonly const?: number;
};

export type JsonBooleanSchema = Annotations & {
  readonly type: TypeOf<'boolean'>;
  readonly enum?: readonly (boolean | null)[];
  readonly const?: boolean;
};

export type JsonArraySchema = Annotations & {
  readonly type: TypeOf<'array'>;
  readonly items: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
};

export type JsonObjectSchema = Annotations & {
  readonly type: TypeOf<'object'>;
  readonly properties?: { readonly [name: string]: JsonSchema };
  readonly required?: readonly string[];
  readonly additionalProperties?: false;
};

/** A closed set of values with no `type`: `{ enum: ['C', 'F'] }`. */
export type JsonEnumSchema = Annotations & {
  readonly enum: readonly (string | number | boolean | null)[];
};

export type JsonConstSchema = Annotations & {
  readonly const: string | number | boolean | null;
};

export type JsonSchema =
  | JsonStringSchema
  | JsonNumberSchema
  | JsonBooleanSchema
  | JsonArraySchema
  | JsonObjectSchema
  | JsonEnumSchema
  | JsonConstSchema;

/** The static type of a value a schema accepts, after the binder applied defaults. */
export type InferJsonSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly type: readonly [infer T, 'null'] }
      ? InferByType<T, S> | null
      : S extends { readonly type: infer T }
        ? InferByType<T, S>
        : unknown;

type InferByType<T, S> = T extends 'string'
  ? string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'array'
        ? S extends { readonly items: infer I }
          ? InferJsonSchema<I>[]
          : unknown[]
        : T extends 'object'
          ? S extends { readonly properties: infer P }
            ? InferObject<P, S extends { readonly required: readonly (infer R)[] } ? R : never>
            : Record<string, never>
          : unknown;

/** Required and defaulted properties are always present; the others may be absent. */
type InferObject<P, R> = Simplify<
  {
    -readonly [K in keyof P as K extends R ? K : P[K] extends { default: unknown } ? K : never]: InferJsonSchema<P[K]>;
  } & {
    -readonly [K in keyof P as K extends R ? never : P[K] extends { default: unknown } ? never : K]?: InferJsonSchema<
      P[K]
    >;
  }
>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
