import type { DecodedView } from './decodedView.js';

/** A run long enough to hold a short secret once decoded (4 bytes of base64 or 3 of hex). */
const MIN_RUN = 6;
const RUNS = {
  base64: { inAlphabet: (code: number) => code < 128 && BASE64_VALUES[code]! >= 0, alignments: 4 },
  hex: {
    inAlphabet: (code: number) => (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66),
    alignments: 2,
  },
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
export function decodedRuns(text: string, encoding: 'base64' | 'hex'): DecodedView[] {
  const { alignments } = RUNS[encoding];
  const bytes = new Uint8Array(text.length * 4 + 16);
  const origins: number[] = [];
  const ends: number[] = [];
  let n = 0;
  for (const [start, end] of encodedRunsOf(text, encoding)) {
    for (let offset = 0; offset < alignments; offset++) {
      n =
        encoding === 'base64'
          ? decodeBase64(text, start + offset, end, bytes, n)
          : decodeHex(text, start + offset, end, bytes, n);
      bytes[n++] = 0;
      origins.push(start + offset);
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

/**
 * Where the runs of an encoding's alphabet at least {@link MIN_RUN} long are in a text, as [start, end) pairs. Found
 * by a loop, not a regular expression: V8 would keep a backtrack entry per character of a run, and overflow its stack
 * on one of a few MiB.
 */
export function encodedRunsOf(text: string, encoding: 'base64' | 'hex'): [number, number][] {
  const { inAlphabet } = RUNS[encoding];
  const runs: [number, number][] = [];
  for (let start = 0; start < text.length; ) {
    if (!inAlphabet(text.charCodeAt(start))) {
      start++;
      continue;
    }
    let end = start + 1;
    while (end < text.length && inAlphabet(text.charCodeAt(end))) end++;
    if (end - start >= MIN_RUN) runs.push([start, end]);
    start = end;
  }
  return runs;
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
