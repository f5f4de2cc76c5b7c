import { FORMAT_CHECKS } from '../schema/formats.js';
import { compileLinearPattern, UnsupportedPattern } from '../schema/linearPattern.js';
import type { PublishedSchema } from '../schema/publishedSchema.js';
import { type Emitter, type Site, statements } from './emitter.js';
import { valueArrived } from './invalidArgument.js';

/**
 * Code for a string: its type, its length in characters (counted only near a bound), its pattern
 * (in linear time) and its format.
 */
export function emitString(gen: Emitter, node: PublishedSchema, site: Site, expected: string): string {
  const { input } = site;
  const lines = [`if (typeof ${input} !== "string") ${gen.refuse(site, 'invalid_type', expected)}`];
  const min = node.minLength as number | undefined;
  const max = node.maxLength as number | undefined;
  if (min !== undefined || max !== undefined) {
    // A string's UTF-16 length bounds its character count: between length / 2 and length.
    // Only a string near a bound needs its characters counted.
    const near = [
      max !== undefined ? `${input}.length > ${gen.literal(max)}` : '',
      min !== undefined ? `${input}.length < ${gen.literal(min * 2)}` : '',
    ]
      .filter(Boolean)
      .join(' || ');
    const count = gen.var('n');
    const withLength = (v: unknown, n: unknown) => `${valueArrived(v)} (${String(n)} character${n === 1 ? '' : 's'})`;
    lines.push(`if (${near}) {`, `const ${count} = ${gen.ref(countCharacters)}(${input});`);
    if (max !== undefined)
      lines.push(`if (${count} > ${gen.literal(max)}) ${gen.refuse(site, 'too_long', expected, withLength, count)}`);
    if (min !== undefined)
      lines.push(`if (${count} < ${gen.literal(min)}) ${gen.refuse(site, 'too_short', expected, withLength, count)}`);
    lines.push('}');
  }
  if (typeof node.pattern === 'string') {
    // Checked in linear time: a pattern such as ^(a+)+$ cannot stall the run. The only
    // patterns that cannot run so are zod's own format patterns, which zod's step checks.
    const pattern = compileLinearPattern(node.pattern);
    if (!(pattern instanceof UnsupportedPattern))
      lines.push(`if (!${gen.ref(pattern)}.test(${input})) ${gen.refuse(site, 'invalid_format', expected)}`);
  }
  const format = FORMAT_CHECKS.get(node.format as string);
  if (format !== undefined)
    lines.push(`if (!${gen.ref(format)}(${input})) ${gen.refuse(site, 'invalid_format', expected)}`);
  lines.push(`${site.out} = ${input};`);
  return statements(lines);
}

/** Characters as JSON Schema counts them: code points, a surrogate pair counting once. */
function countCharacters(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // Past the end, charCodeAt gives NaN, which is no low surrogate: a high one there counts alone.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
