import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardStateOfHistory } from '../../../src/guard/historyGuardState.js';
import { provenanceOf } from '../../../src/guard/provenance/provenance.js';
import { untracedArgument } from '../../../src/guard/provenance/traceArguments.js';
import type { Message } from '../../../src/messages/types.js';
import { toolOf } from './conversation.js';

/**
 * For generated conversations: a value written only where outsiders write (or where nobody vouches
 * for it) is never traced, whatever form the call gives it; a value written in trusted text is
 * always traced, whatever separators, case or width the call uses. Noise is drawn from letters
 * a-m and digits, the value always holds a letter from n-z, so noise can never spell it.
 */

const noiseWord = fc.stringMatching(/^[a-mA-M0-9]{1,8}$/);
const noise = fc.array(noiseWord, { maxLength: 6 }).map((words) => words.join(' '));
const SEPARATORS = [' ', '-', '.', '/', ':', ',', '_', '  ', ' - '];
const separator = fc.constantFrom(...SEPARATORS);

/** A value as chunks of letters n-z and digits, with at least one letter. */
const secret = fc
  .array(fc.stringMatching(/^[n-z0-9]{1,5}$/), { minLength: 1, maxLength: 4 })
  .filter((chunks) => /[n-z]/.test(chunks.join('')));

/** The chunks written in text, joined by separators, each character in some case. */
function written(chunks: string[]) {
  return fc
    .tuple(fc.array(separator, { minLength: chunks.length, maxLength: chunks.length }), fc.boolean())
    .map(([seps, upper]) => {
      const text = chunks.map((chunk, i) => (i === 0 ? '' : seps[i]) + chunk).join('');
      return upper ? text.toUpperCase() : text;
    });
}

/** The same characters as a call might send them: separators anywhere, any case, full-width or not. */
function variant(chunks: string[]) {
  const chars = [...chunks.join('')];
  return fc
    .array(fc.tuple(fc.constantFrom('lower', 'upper', 'wide'), fc.option(separator, { nil: '' })), {
      minLength: chars.length,
      maxLength: chars.length,
    })
    .map((forms) =>
      chars
        .map((char, i) => {
          const [form, after] = forms[i]!;
          const cased = form === 'upper' ? char.toUpperCase() : char;
          const shown = form === 'wide' ? String.fromCharCode(cased.charCodeAt(0) + 0xfee0) : cased;
          return i === chars.length - 1 ? shown : shown + after;
        })
        .join(''),
    );
}

/**
 * The same characters as a call might legitimately send them: any case, full-width or not, with the
 * chunks' separators changed, or with no separator at all. (Text that writes the value as one token
 * would trace any split; `written` always separates the chunks.)
 */
function sameSplit(chunks: string[]) {
  return fc
    .tuple(variant(chunks), fc.array(separator, { minLength: chunks.length, maxLength: chunks.length }), fc.boolean())
    .map(([chars, seps, joined]) => {
      const shown = [...chars.replace(/[^\p{L}\p{N}]/gu, '')];
      const starts = chunks.map((_, i) => chunks.slice(0, i).join('').length);
      return chunks
        .map(
          (chunk, i) => (i === 0 || joined ? '' : seps[i]) + shown.slice(starts[i], starts[i]! + chunk.length).join(''),
        )
        .join('');
    });
}

type Place =
  | 'read_file'
  | 'subject'
  | 'untrusted error'
  | 'unattributed'
  | 'web_search'
  | 'trusted error'
  | 'echo'
  | 'assistant'
  | 'noise';
const OUTSIDE_TOOL: Partial<Record<Place, string>> = {
  read_file: 'read_file',
  subject: 'list_transactions',
  'untrusted error': 'list_transactions',
  unattributed: 'unattributed tool result',
  web_search: 'web_search',
};

/** Messages that write `text` at `place` (noise: a trusted result and a vouched row of noise). */
function placed(place: Place, text: string, filler: string, i: number): Message[] {
  const id = `toolu_${i}`;
  const call = (name: string, input: unknown = { q: filler }): Message => ({
    role: 'assistant',
    content: [{ type: 'tool_use', id, name, input }],
  });
  const result = (content: string, isError = false): Message => ({
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }],
  });
  const rows = (subject: string) =>
    JSON.stringify([
      { sender: filler, amount: i, subject: `${filler} ${subject} ${filler}` },
      { sender: 'abc', subject: filler },
    ]);
  switch (place) {
    case 'read_file':
      return [call('read_file'), result(`${filler} ${text} ${filler}`)];
    case 'subject':
      return [call('list_transactions'), result(rows(text))];
    case 'untrusted error':
      return [call('list_transactions'), result(`bad ${text}`, true)];
    case 'unattributed':
      return [result(`${filler} ${text}`)];
    case 'web_search':
      return [
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id, name: 'web_search', input: { query: filler } },
            { type: 'web_search_tool_result', tool_use_id: id, content: [{ type: 'web_search_result', title: text }] },
          ],
        },
      ];
    case 'trusted error':
      return [call('get_balance'), result(`no account ${text}`, true)];
    case 'echo':
      return [call('lookup_contact', { name: text }), result(`no contact named ${text}`)];
    case 'assistant':
      return [{ role: 'assistant', content: [{ type: 'text', text: `I will pay ${text}` }] }];
    case 'noise':
      return [call('get_balance'), result(filler), call('list_transactions'), result(rows(filler))];
  }
}

const untrustedPlace = fc.constantFrom<Place>(
  'read_file',
  'subject',
  'untrusted error',
  'unattributed',
  'web_search',
  'trusted error',
  'echo',
  'assistant',
  'noise',
);

describe('provenance, for generated conversations', () => {
  it('never traces a value written only in outside-authored text, untrusted errors or echoes', () => {
    fc.assert(
      fc.property(
        secret.chain((chunks) =>
          fc.tuple(
            fc.array(fc.tuple(untrustedPlace, written(chunks), noise), { minLength: 1, maxLength: 8 }),
            variant(chunks),
            noise,
            noise,
          ),
        ),
        ([places, value, userText, system]) => {
          const messages: Message[] = [{ role: 'user', content: `please ${userText}` }];
          for (const [i, [place, text, filler]] of places.entries()) messages.push(...placed(place, text, filler, i));
          const p = provenanceOf({ system, messages }, toolOf);
          const foundIn = [...new Set(places.flatMap(([place]) => OUTSIDE_TOOL[place] ?? []))];
          expect(untracedArgument({ pay: { to: [value] } }, ['pay.to[]'], p)).toEqual({
            argument: 'pay.to[0]',
            value,
            foundIn,
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  const trustedPlace = fc.constantFrom('user', 'system', 'trusted result', 'vouched field');

  it('always traces a value written in trusted text, whatever separators (changed or dropped), case or width', () => {
    fc.assert(
      fc.property(
        secret.chain((chunks) =>
          fc.tuple(
            trustedPlace,
            written(chunks),
            sameSplit(chunks),
            fc.array(fc.tuple(untrustedPlace, noise, noise), { maxLength: 5 }),
            noise,
          ),
        ),
        ([where, text, value, others, filler]) => {
          const messages: Message[] = [{ role: 'user', content: where === 'user' ? `pay ${text} now` : filler }];
          for (const [i, [place, otherText, otherFiller]] of others.entries()) {
            messages.push(...placed(place, otherText, otherFiller, i));
          }
          if (where === 'trusted result') {
            messages.push(
              { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_t', name: 'lookup_contact', input: {} }] },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_t', content: `iban ${text}` }] },
            );
          }
          if (where === 'vouched field') {
            const rows = JSON.stringify([{ sender: text, subject: filler }]);
            messages.push(
              {
                role: 'assistant',
                content: [{ type: 'tool_use', id: 'toolu_v', name: 'list_transactions', input: {} }],
              },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_v', content: rows }] },
            );
          }
          const system = where === 'system' ? `Landlord: ${text}.` : undefined;
          const p = provenanceOf({ system, messages }, toolOf);
          expect(untracedArgument({ recipient: value }, ['recipient'], p)).toBeUndefined();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('traces an amount written in user text in any format it reads, and not one only a file holds', () => {
    const formats = (cents: number) => {
      const value = cents / 100;
      const fixed = value.toFixed(2);
      const grouped = fixed.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
      return fc.constantFrom(fixed, String(value), grouped, `${grouped} EUR`);
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 11 }).chain((cents) => fc.tuple(fc.constant(cents), formats(cents))),
        fc.boolean(),
        ([cents, shown], asString) => {
          const amount = asString ? (cents / 100).toString() : cents / 100;
          const inUser: Message[] = [{ role: 'user', content: `pay ${shown} to my landlord` }];
          const inFile: Message[] = [
            { role: 'user', content: 'pay the bill' },
            { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_f', name: 'read_file', input: {} }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_f', content: `Due: ${shown}` }] },
          ];
          const untraced = (messages: Message[]) =>
            untracedArgument({ amount }, ['amount'], provenanceOf({ system: undefined, messages }, toolOf));
          expect(untraced(inUser)).toBeUndefined();
          expect(untraced(inFile)).toEqual({ argument: 'amount', value: amount, foundIn: ['read_file'] });
        },
      ),
      { numRuns: 200 },
    );
  });

  it('pairs results with calls as the history walk does: the first outside result is its taint', () => {
    const names = fc.constantFrom('read_file', 'get_balance', 'mystery');
    const ids = fc.constantFrom('toolu_1', 'toolu_2', 'toolu_3');
    const message = fc.oneof(
      fc.array(fc.tuple(ids, names), { minLength: 1, maxLength: 3 }).map(
        (uses): Message => ({
          role: 'assistant',
          content: uses.map(([id, name]) => ({ type: 'tool_use', id, name, input: {} })),
        }),
      ),
      fc.array(fc.tuple(ids, fc.boolean()), { minLength: 1, maxLength: 3 }).map(
        (results): Message => ({
          role: 'user',
          content: results.map(([id, isError]) => ({
            type: 'tool_result',
            tool_use_id: id,
            content: 'x',
            is_error: isError,
          })),
        }),
      ),
      fc.constant<Message>({ role: 'user', content: 'more' }),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), (messages) => {
        const tool = (name: string) => {
          const known = toolOf(name);
          return known === undefined ? undefined : { untrusted: known.untrusted, terminal: false };
        };
        const taint = guardStateOfHistory(messages, tool).taint;
        const first = [...provenanceOf({ system: undefined, messages }, toolOf).outside][0];
        expect(first === undefined ? null : { source: first[1].tool, id: first[0] }).toEqual(taint);
      }),
      { numRuns: 500 },
    );
  });
});

describe('echoes, generated (issue 31)', () => {
  const name = fc.stringMatching(/^[n-z][n-z0-9]{2,9}$/);
  const leaf = fc.oneof(name, fc.boolean(), fc.constant(null), fc.integer({ min: 1000, max: 10 ** 9 }));
  const input = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
    array: fc.array(tie('node'), { maxLength: 3 }),
    object: fc.dictionary(name, tie('node'), { minKeys: 1, maxKeys: 3 }),
  })).object;

  /** Every key and string (or number) in a value: what the result may echo. */
  const echoable = (value: unknown): string[] =>
    Array.isArray(value)
      ? value.flatMap(echoable)
      : value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, item]) => [key, ...echoable(item)])
        : typeof value === 'string' || typeof value === 'number'
          ? [String(value)]
          : [];

  it("never traces a key or value of a trusted call's input that its result echoes, at any depth", () => {
    fc.assert(
      fc.property(
        input.filter((i) => echoable(i).length > 0),
        fc.nat(),
        fc.constantFrom(' ', ', ', ' / ', '\n'),
        fc.boolean(),
        (callInput, pick, separator, upper) => {
          const strings = echoable(callInput);
          const echoed = `No match for ${strings.join(separator)}`;
          const messages: Message[] = [
            { role: 'user', content: 'hi' },
            {
              role: 'assistant',
              content: [{ type: 'tool_use', id: 'toolu_e', name: 'lookup_contact', input: callInput }],
            },
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 'toolu_e', content: upper ? echoed.toUpperCase() : echoed },
              ],
            },
          ];
          const value = strings[pick % strings.length]!;
          const p = provenanceOf({ system: undefined, messages }, toolOf);
          expect(untracedArgument({ recipient: value }, ['recipient'], p)).toEqual({
            argument: 'recipient',
            value,
            foundIn: [],
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("a privileged tool's result (a write tool answers with what it stored, which others wrote into)", () => {
  const field = fc.stringMatching(/^[a-m]{1,8}$/);
  /** A conversation in which a privileged tool answered JSON holding the value in one field, among noise. */
  const answered = (output: Record<string, string>): Message[] => [
    { role: 'user', content: 'Add Alice to the meeting.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_w', name: 'add_participants', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_w', content: JSON.stringify(output) }] },
  ];
  const writer = (outsideAuthored: readonly string[] | undefined) => (name: string) =>
    name === 'add_participants' ? { untrusted: false, privileged: true, outsideAuthored } : toolOf(name);

  it('vouches for nothing unless its author declares which fields are others: the value never traces', () => {
    fc.assert(
      fc.property(secret, field, fc.dictionary(field, noise), (chunks, key, rest) => {
        const value = chunks.join('');
        const messages = answered({ ...rest, [key]: value });
        const p = provenanceOf({ system: undefined, messages }, writer(undefined));
        expect(untracedArgument({ to: value }, ['to'], p)).toEqual({
          argument: 'to',
          value,
          foundIn: ['add_participants'],
        });
      }),
    );
  });

  it('vouches for the fields its author did not declare as others, and for none of those declared', () => {
    fc.assert(
      fc.property(secret, field, fc.boolean(), (chunks, key, declared) => {
        const value = chunks.join('');
        const outsideAuthored = declared ? [key] : [];
        const p = provenanceOf({ system: undefined, messages: answered({ [key]: value }) }, writer(outsideAuthored));
        expect(untracedArgument({ to: value }, ['to'], p) === undefined).toBe(!declared);
      }),
    );
  });
});
