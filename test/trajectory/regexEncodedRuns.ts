/**
 * The scan of base64 and hex runs as it was before issue 31, by a regular expression: a reference for short inputs
 * (on a run of 8 MiB it overflows the stack). Kept only for the tests that compare the two.
 */
import type { DecodedView } from '../../src/trajectory/secretEncodings.js';

/** A run long enough to hold a short secret once decoded (4 bytes of base64 or 3 of hex). */
const RUNS = {
  base64: { pattern: /[A-Za-z0-9+/_-]{6,}/g, alignments: 4 },
  hex: { pattern: /[0-9A-Fa-f]{6,}/g, alignments: 2 },
} as const;

/** Each base64 character's value, standard and url-safe alphabets both; -1 for any other. */
const BASE64_VALUES = (() => {
  const values = new Int8Array(128).fill(-1);
  for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries())
    values[c.charCodeAt(0)] = i;
  values['-'.charCodeAt(0)] = 62;
  values['_'.charCodeAt(0)] = 63;
  return values;
})();

/**
 * Every run of an encoding's alphabet in a text, decoded from each of its alignments (a run
 * may begin with characters that are not part of the encoded value: a secret embedded at any
 * byte offset of a longer base64 string is decoded from one of them). The bytes are read as
 * Latin-1 and, when any is not ASCII, as UTF-8 too. Each decoded run ends with a NUL, which no
 * secret pattern should match across; every character maps back to the start of its run.
 */
export function regexDecodedRuns(text: string, encoding: 'base64' | 'hex'): DecodedView[] {
  const { pattern, alignments } = RUNS[encoding];
  const bytes = new Uint8Array(text.length * 4 + 16);
  const origins: number[] = [];
  const ends: number[] = [];
  let n = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const end = match.index + match[0].length;
    for (let offset = 0; offset < alignments; offset++) {
      n =
        encoding === 'base64'
          ? decodeBase64(text, match.index + offset, end, bytes, n)
          : decodeHex(text, match.index + offset, end, bytes, n);
      bytes[n++] = 0;
      origins.push(match.index + offset);
      ends.push(n);
    }
  }
  const buffer = Buffer.from(bytes.buffer, 0, n);
  const runOf = (byteEnds: number[], index: number) => {
    let low = 0;
    let high = byteEnds.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (byteEnds[middle]! > index) high = middle;
      else low = middle + 1;
    }
    return origins[low] ?? 0;
  };
  const views: DecodedView[] = [{ encoding, text: buffer.toString('latin1'), origin: (index) => runOf(ends, index) }];
  if (!isAscii(bytes, n)) {
    // Where each run ends in the UTF-8 text, counted only when a finding needs it.
    let charEnds: number[] | undefined;
    const utf8Ends = () => {
      if (charEnds !== undefined) return charEnds;
      let total = 0;
      charEnds = ends.map(
        (runEnd, i) => (total += buffer.subarray(i === 0 ? 0 : ends[i - 1], runEnd).toString('utf8').length),
      );
      return charEnds;
    };
    views.push({ encoding, text: buffer.toString('utf8'), origin: (index) => runOf(utf8Ends(), index) });
  }
  return views;
}

function isAscii(bytes: Uint8Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

function decodeBase64(text: string, from: number, to: number, out: Uint8Array, n: number): number {
  let bits = 0;
  let count = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    bits = ((bits << 6) | BASE64_VALUES[code]!) & 0xffffff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out[n++] = (bits >> count) & 0xff;
    }
  }
  return n;
}

function decodeHex(text: string, from: number, to: number, out: Uint8Array, n: number): number {
  for (let i = from; i + 1 < to; i += 2)
    out[n++] = (hexValue(text.charCodeAt(i)) << 4) | hexValue(text.charCodeAt(i + 1));
  return n;
}

/** A hex digit's value (the run holds only hex digits). */
function hexValue(code: number): number {
  return code <= 0x39 ? code - 0x30 : (code | 0x20) - 0x57;
}
