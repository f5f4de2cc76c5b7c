import type * as z from 'zod';
import type { InferToolArgs, JsonObjectSchema } from './schema/jsonSchema.js';

/** A tool's input: a zod object schema, or a JSON Schema object (a literal, or one loaded from JSON). */
export type ToolInput = z.ZodType | JsonObjectSchema;

/** The arguments `run` receives for a given input schema, after defaults and transforms. */
export type ArgsOf<S> = 0 extends 1 & S
  ? Record<string, unknown>
  : S extends z.ZodType
    ? z.output<S>
    : InferToolArgs<S>;
