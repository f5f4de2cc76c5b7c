/**
 * How a value is compared with text. Both sides are normalised the same way: Unicode NFKC (full-width
 * letters and digits, ligatures, compatibility forms become their plain form), then case-folded, but
 * never from outside ASCII into an ASCII letter (`ı` is not `i`, see {@link normalised}).
 * Text is then read as tokens: maximal runs of letters, digits and combining marks; everything else
 * (spaces, `- _ . / : ,`, quotes, brackets, other punctuation and symbols) separates tokens and is
 * dropped. A string value occurs in a text where a contiguous run of whole tokens of the text holds the
 * value's tokens with the same boundaries (the separators between them changed or different), or where
 * the value is a single token equal to the run's tokens joined (its separators all dropped):
 * `gb29nwbk6016` and `GB29_NWBK_6016` occur in `GB29-NWBK-6016`. A separator moved, added or dropped
 * between the value's own letters or digits makes other tokens, and the value does not occur:
 * `alicec@orp.com` is not in `alice@corp.com`, `pay.co` not in `Payco`, `GB29 NWBK 6016` not in
 * `gb29nwbk6016` (a value split where the text is not), `GB29 NWBK6016` not in `GB29 NWBK 6016`, and
 * `NWBK` not in `GB29NWBK6016` (no part of a token).
 *
 * A number, or a string that is wholly a number, is compared as a number with the numbers written in
 * the text (see {@link numbersIn}). A string with no letter or digit (`'!!!'`) occurs where its
 * normalised form occurs as written. A string of nothing but spaces, the empty one included, is traced
 * nowhere: it would occur in any text, and an empty password or account is a value an injection can ask for.
 */

/** What to look for in a text, made once per value. */
export type Needle =
  /** The tokens joined, and the offsets in `compact` where one of its tokens ends and the next starts. */
  | { kind: 'tokens'; compact: string; cuts: readonly number[] }
  | { kind: 'number'; canonical: string }
  | { kind: 'symbols'; text: string }
  | { kind: 'nothing' };

/**
 * A text normalised for comparison: NFKC, then case-folded: upper, then lower case (so `Σ`, `σ` and
 * `ς` are all `σ`, `ǅ` is `ǆ`, `ᲀ` is `в`), with the final sigma `ς` as `σ` (as Unicode case folding has
 * it); then NFKC again. A folding only maps what is the same text: NFKC's compatibility forms (`K`
 * Kelvin, `ſ`, `ﬀ`, full-width `Ａ` are ASCII letters) and case. The characters that NFKC leaves
 * outside ASCII but whose case mapping holds an ASCII letter are other letters, look-alikes at that
 * (`ı` U+0131 upper-cases to `I`, `İ` U+0130 lower-cases to `i̇`, `ß` to `SS`): each is kept as in
 * {@link NOT_INTO_ASCII}, so `ıban` is not `iban` and `straße` is not `strasse` (other IDN domains).
 */
export function normalised(text: string): string {
  const compatible = text.normalize('NFKC');
  let folded = '';
  let from = 0;
  for (const kept of compatible.matchAll(KEPT)) {
    folded += caseFolded(compatible.slice(from, kept.index)) + NOT_INTO_ASCII[kept[0]]!;
    from = kept.index + kept[0].length;
  }
  return (folded + caseFolded(compatible.slice(from))).normalize('NFKC');
}

/**
 * Every character NFKC leaves outside ASCII whose case folding would make it an ASCII letter, and what
 * it folds to instead: its lower case when that is outside ASCII (`ẞ` is `ß`), else itself.
 */
const NOT_INTO_ASCII: Readonly<Record<string, string>> = { ß: 'ß', ẞ: 'ß', İ: 'İ', ı: 'ı' };
const KEPT = new RegExp(`[${Object.keys(NOT_INTO_ASCII).join('')}]`, 'gu');

function caseFolded(text: string): string {
  return text.toUpperCase().toLowerCase().replaceAll('ς', 'σ');
}

/** The tokens of a normalised text: maximal runs of letters, digits and combining marks. */
export function tokensOf(normalisedText: string): string[] {
  return normalisedText.match(TOKEN) ?? [];
}

const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * A number as written in text: an optional sign, digits (grouped by commas in threes, or not
 * grouped; no leading zero), an optional fraction after a dot. It must not touch a letter or digit,
 * nor continue with `.5` or `,5` (a version `1.2.3`, a European `1.000,50`: read as no number).
 */
const NUMBER_IN_TEXT = new RegExp(
  String.raw`(?<![\p{L}\p{N}\p{M}]|\d[.,])([-+\u2212]?)([1-9]\d{0,2}(?:,\d{3})+|[1-9]\d*|0)(?:\.(\d+))?` +
    String.raw`(?![\p{L}\p{N}\p{M}]|[.,]\d)`,
  'gu',
);

/** A string that is wholly a number, in the same grammar, after NFKC and trimming. */
const WHOLE_NUMBER = /^([-+\u2212]?)([1-9]\d{0,2}(?:,\d{3})+|[1-9]\d*|0)(?:\.(\d+))?$/u;

/**
 * The numbers a normalised text holds, each as its canonical decimal (`1,000.50` is `1000.5`, `0.10`
 * is `0.1`). A number written with a minus (`-100`, `−100`) gives both `-100` and `100`: an amount
 * shown as a debit is still that amount; one written without gives only its magnitude.
 */
export function numbersIn(normalisedText: string): string[] {
  const found: string[] = [];
  for (const match of normalisedText.matchAll(NUMBER_IN_TEXT)) {
    const magnitude = canonicalMagnitude(match[2]!, match[3]);
    found.push(magnitude);
    if (match[1] !== '' && match[1] !== '+' && magnitude !== '0') found.push(`-${magnitude}`);
  }
  return found;
}

/** What a string or number is looked for as. */
export function needleOf(value: string | number): Needle {
  if (typeof value === 'number') {
    // A number JavaScript writes with an exponent (1e21, 1e-7) or not at all (NaN) is never traced.
    const text = String(value);
    return Number.isFinite(value) && !text.includes('e') ? { kind: 'number', canonical: text } : { kind: 'nothing' };
  }
  const text = normalised(value);
  if (text.trim() === '') return { kind: 'nothing' };
  const whole = WHOLE_NUMBER.exec(text.trim());
  if (whole !== null) {
    const magnitude = canonicalMagnitude(whole[2]!, whole[3]);
    const negative = whole[1] !== '' && whole[1] !== '+' && magnitude !== '0';
    return { kind: 'number', canonical: negative ? `-${magnitude}` : magnitude };
  }
  const tokens = tokensOf(text);
  const compact = tokens.join('');
  if (compact === '') return { kind: 'symbols', text };
  const cuts: number[] = [];
  let at = 0;
  for (const token of tokens.slice(0, -1)) {
    at += token.length;
    cuts.push(at);
  }
  return { kind: 'tokens', compact, cuts };
}

/**
 * The needle with its separators all dropped: it occurs wherever its letters and digits occur as a run
 * of whole tokens, however they are split. For the questions where finding more is the safe answer
 * (is a value an echo of a call's input; which outside texts could it have come from).
 */
export function anySplit(needle: Needle): Needle {
  return needle.kind === 'tokens' ? { kind: 'tokens', compact: needle.compact, cuts: [] } : needle;
}

/**
 * A key that is the same for two values exactly when they are looked for the same way: the needle as
 * JSON (the functions here make each kind's fields in one order).
 */
export function needleKey(needle: Needle): string {
  return JSON.stringify(needle);
}

function canonicalMagnitude(whole: string, fraction: string | undefined): string {
  const digits = whole.replaceAll(',', '');
  const decimals = (fraction ?? '').replace(/0+$/, '');
  return decimals === '' ? digits : `${digits}.${decimals}`;
}
