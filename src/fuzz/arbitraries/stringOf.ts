import { fc } from '../fastCheck.js';
import type { PublishedSchema } from '../../tools/schema/publishedSchema.js';
import { FORMAT_CHECKS } from '../../tools/schema/formats.js';
import { patternOf } from './accepts.js';
import { keepOnly } from './keepOnly.js';
import { characterCount } from './characterCount.js';

/** Text that has broken parsers before: zero-width, right-to-left, combining, astral and lone surrogate characters. */
export const AWKWARD_TEXT = ['\u200B', '\u202E', '\u0301', '😀', '\uFEFF', '\u2028', 'é', '\u0000', '\uD800', '\uDFFF'];

const EARLIEST = new Date('1970-01-01T00:00:00Z');
const LATEST = new Date('2100-01-01T00:00:00Z');
const dates = fc.date({ min: EARLIEST, max: LATEST, noInvalidDate: true });

/** Values of each format the binder checks, as ordinary senders write them. */
const FORMAT_VALUES: Record<string, fc.Arbitrary<string>> = {
  email: fc.emailAddress(),
  uuid: fc.uuid(),
  'date-time': dates.map((d) => d.toISOString()),
  date: dates.map((d) => d.toISOString().slice(0, 10)),
  time: fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m, s]) => `${pad(h)}:${pad(m)}:${pad(s)}Z`),
  ipv4: fc.ipV4(),
  ipv6: fc.ipV6(),
  uri: fc.webUrl(),
  hostname: fc.domain(),
  duration: fc.tuple(fc.nat(99), fc.nat(59)).map(([h, m]) => `PT${h}H${m}M`),
};

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Texts a string node takes: length bounds, pattern and format (a format the binder does not check: free text). */
export function stringOf(node: PublishedSchema): fc.Arbitrary<string> {
  const min = (node.minLength as number | undefined) ?? 0;
  const max = (node.maxLength as number | undefined) ?? Math.max(min, 40);
  const check = typeof node.format === 'string' ? FORMAT_CHECKS.get(node.format) : undefined;
  const fits = (text: string) => {
    const length = characterCount(text);
    return length >= min && length <= max && (check === undefined || check(text));
  };
  const format = typeof node.format === 'string' ? FORMAT_VALUES[node.format] : undefined;
  if (typeof node.pattern === 'string') {
    // A format's own values, where the pattern takes some, are cheaper than texts of the pattern that
    // then must pass the format's check (an email pattern's texts mostly fail the email check).
    const pattern = patternOf(node.pattern);
    const formatted = format && keepOnly(format, (text) => fits(text) && pattern.test(text));
    return formatted ?? matching(node.pattern).filter(fits);
  }
  if (format !== undefined) return format.filter(fits);
  const unit = fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: fc.constantFrom(...AWKWARD_TEXT) },
  );
  const ordinary = fc
    .array(unit, { minLength: min, maxLength: Math.min(max, min + 40) })
    .map((parts) => parts.join(''));
  // Now and then a very long text, as long as the schema allows.
  const long = fc.constantFrom('x', '😀', '\u202E').map((c) => c.repeat(Math.max(min, Math.min(max, 20_000))));
  return fc.oneof({ weight: 20, arbitrary: ordinary }, { weight: 1, arbitrary: long }).filter(fits);
}

/**
 * Texts a pattern matches. fast-check's generator misreads a few escapes and cannot generate for
 * word boundaries, so it is given the pattern rewritten without them (`\cJ` as `\x0a`, `[\b]`
 * as `[\x08]`, `\b` and `\B` dropped), and where a boundary was dropped only the texts the
 * whole pattern matches are kept.
 */
export function matching(source: string): fc.Arbitrary<string> {
  const pattern = new RegExp(source, 'u');
  const { rewritten, droppedBoundary } = forGenerator(source);
  const texts = fc.stringMatching(new RegExp(rewritten, 'u'));
  return droppedBoundary ? texts.filter((text) => pattern.test(text)) : texts;
}

function forGenerator(source: string): { rewritten: string; droppedBoundary: boolean } {
  let rewritten = '';
  let inClass = false;
  let droppedBoundary = false;
  const hex = (code: number) => `\\x${code.toString(16).padStart(2, '0')}`;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (next === 'c' && /[A-Za-z]/.test(source[i + 2] ?? '')) {
        rewritten += hex(source.charCodeAt(i + 2) % 32);
        i += 2;
        continue;
      }
      if (inClass && next === 'b') rewritten += hex(8);
      else if (!inClass && (next === 'b' || next === 'B')) droppedBoundary = true;
      else rewritten += c + next;
      i++;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    rewritten += c;
  }
  return { rewritten, droppedBoundary };
}
