import * as z from 'zod';
import { isPlainObject } from '../../json/jsonValue.js';
import { layout } from './values.js';

/**
 * The format's declaration, read as a plan for walking a value: which fields a mapping has and
 * in what order, which of them are optional, free or written on one line, and which form of a
 * union a value takes. The reader and the writer both walk values by it.
 */
export type Plan =
  | ObjectPlan
  | { kind: 'list'; item: Plan }
  | { kind: 'record'; value: Plan }
  | UnionPlan
  | { kind: 'leaf' };

export interface ObjectPlan {
  kind: 'object';
  fields: FieldPlan[];
}

export interface UnionPlan {
  kind: 'union';
  options: Plan[];
}

export interface FieldPlan {
  key: string;
  plan: Plan;
  optional: boolean;
  free: boolean;
  flow: boolean;
}

const plans = new WeakMap<z.ZodType, Plan>();

export function planOf(schema: z.ZodType): Plan {
  const known = plans.get(schema);
  if (known !== undefined) return known;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    const plan: ObjectPlan = { kind: 'object', fields: [] };
    plans.set(schema, plan); // before the fields: a run holds sub-runs
    for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
      const hint = { ...layout.get(field), ...layout.get(unwrap(field)) };
      const optional = field instanceof z.ZodOptional;
      plan.fields.push({
        key,
        plan: planOf(unwrap(field)),
        optional,
        free: hint.free === true,
        flow: hint.flow === true,
      });
    }
    return plan;
  }
  const plan: Plan =
    inner instanceof z.ZodArray
      ? { kind: 'list', item: planOf(inner.element as z.ZodType) }
      : inner instanceof z.ZodRecord
        ? { kind: 'record', value: planOf(inner.valueType as z.ZodType) }
        : inner instanceof z.ZodUnion
          ? { kind: 'union', options: (inner.options as z.ZodType[]).map(planOf) }
          : { kind: 'leaf' };
  plans.set(schema, plan);
  return plan;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner;
}

/**
 * The form of a union a value takes: a list for a list, a mapping whose first field (the one
 * that names its kind: `text`, `toolUse`, ...) the value has (as YAML or as JSON text), or else
 * a scalar form.
 * Undefined when none fits.
 */
export function optionFor(union: UnionPlan, value: unknown): Plan | undefined {
  if (Array.isArray(value)) return union.options.find((option) => option.kind === 'list');
  if (isPlainObject(value)) {
    return union.options.find((option) => {
      const first = option.kind === 'object' ? option.fields[0] : undefined;
      if (first === undefined) return false;
      return Object.hasOwn(value, first.key) || (first.free && Object.hasOwn(value, `${first.key}Json`));
    });
  }
  return union.options.find((option) => option.kind === 'leaf');
}

/** The names of the kinds of a union of mappings (each option's first field), as a reader lists them. */
export function kindNames(union: UnionPlan): string[] {
  return union.options.flatMap((option) => {
    const first = option.kind === 'object' ? option.fields[0] : undefined;
    if (first === undefined) return [];
    return [first.free ? `${first.key} (or ${first.key}Json)` : first.key];
  });
}

/** The keys of every field, anywhere in the format, that is written on one line. */
export function flowKeys(plan: Plan, seen = new Set<Plan>(), keys = new Set<string>()): Set<string> {
  if (seen.has(plan)) return keys;
  seen.add(plan);
  if (plan.kind === 'object') {
    for (const field of plan.fields) {
      if (field.flow) keys.add(field.key);
      flowKeys(field.plan, seen, keys);
    }
  } else if (plan.kind === 'list') flowKeys(plan.item, seen, keys);
  else if (plan.kind === 'record') flowKeys(plan.value, seen, keys);
  else if (plan.kind === 'union') for (const option of plan.options) flowKeys(option, seen, keys);
  return keys;
}
