import type { PublishedSchema } from '../schema/publishedSchema.js';
import { type Emitter, type Site, statements } from './emitter.js';
import { valueArrived } from './invalidArgument.js';
import { isMultipleOf } from './isMultipleOf.js';

/**
 * Code for a number or an integer: its type (a numeric string is refused with a hint), its range (NaN
 * outside every range) and `multipleOf`.
 */
export function emitNumber(
  gen: Emitter,
  node: PublishedSchema,
  site: Site,
  expected: string,
  integer: boolean,
): string {
  const { input } = site;
  const limit = integer ? Number.MAX_SAFE_INTEGER : Number.MAX_VALUE;
  const bound = (n: unknown, fallback: number, pick: (a: number, b: number) => number) =>
    gen.literal(pick(typeof n === 'number' ? n : fallback, fallback));
  const conditions = [
    `${input} >= ${bound(node.minimum, -limit, Math.max)}`,
    `${input} <= ${bound(node.maximum, limit, Math.min)}`,
    typeof node.exclusiveMinimum === 'number' ? `${input} > ${gen.literal(node.exclusiveMinimum)}` : '',
    typeof node.exclusiveMaximum === 'number' ? `${input} < ${gen.literal(node.exclusiveMaximum)}` : '',
  ].filter(Boolean);
  const hint = (v: unknown) => {
    const arrived = valueArrived(v);
    const numeric = typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));
    return numeric ? `${arrived}; send the number itself, not a string` : arrived;
  };
  const outOfRange = gen.refuser('out_of_range', expected);
  const lines = [
    `if (typeof ${input} !== "number") ${gen.refuse(site, 'invalid_type', expected, hint)}`,
    // NaN fails every comparison, so it is refused here too: never saturated.
    `if (!(${conditions.join(' && ')})) return ${outOfRange}(${input}, [${site.path}]);`,
  ];
  if (integer) lines.push(`if (!Number.isInteger(${input})) ${gen.refuse(site, 'invalid_type', expected)}`);
  if (typeof node.multipleOf === 'number')
    lines.push(
      `if (!${gen.ref(isMultipleOf)}(${input}, ${gen.literal(node.multipleOf)})) ` +
        `return ${outOfRange}(${input}, [${site.path}]);`,
    );
  lines.push(`${site.out} = ${input};`);
  return statements(lines);
}
