import * as z from 'zod';
import { isPlainObject } from '../../json/jsonValue.js';
import { valueCheck } from './valueCheck.js';
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
  /** A value the plan does not look inside (a string, a number, ...): its schema checks it. */
  | { kind: 'leaf'; check: (value: unknown) => boolean };

export interface ObjectPlan {
  kind: 'object';
  fields: FieldPlan[];
}

interface UnionPlan {
  kind: 'union';
  options: Plan[];
  /** The whole union's check: a scalar may take any of its scalar forms. */
  check: (value: unknown) => boolean;
}

interface FieldPlan {
  key: string;
  plan: Plan;
  /** The field's check as declared: for a free value, which the plan does not walk. */
  check: (value: unknown) => boolean;
  optional: boolean;
  /** Null is one of its values (`stopReason: null`), not an absent optional field. */
  nullable: boolean;
  free: boolean;
  flow: boolean;
}

const plans = new WeakMap<z.ZodType, Plan>();

export function planOf(schema: z.ZodType): Plan {
  const known = plans.get(schema);
  if (known !== undefined) return known;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    if ((inner._zod.def.checks?.length ?? 0) > 0) {
      throw new Error("The trajectory format puts a check on a mapping; the reader's walk does not apply it.");
    }
    const plan: ObjectPlan = { kind: 'object', fields: [] };
    plans.set(schema, plan); // before the fields: a run holds sub-runs
    for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
      const hint = { ...layout.get(field), ...layout.get(unwrap(field)) };
      const optional = field instanceof z.ZodOptional;
      plan.fields.push({
        key,
        plan: planOf(unwrap(field)),
        check: valueCheck(field),
        optional,
        nullable: field.safeParse(null).success,
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
          ? { kind: 'union', options: (inner.options as z.ZodType[]).map(planOf), check: valueCheck(inner) }
          : { kind: 'leaf', check: valueCheck(inner) };
  if (plan.kind !== 'leaf' && (inner._zod.def.checks?.length ?? 0) > 0) {
    // The reader's walk checks containers by their shape alone (see normalize): a check on a
    // list, a mapping or a union (a length, a refinement) would need a walk of its own.
    throw new Error(`The trajectory format puts a check on a ${plan.kind}; the reader's walk does not apply it.`);
  }
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
