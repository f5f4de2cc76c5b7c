import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { untracedArgument } from '../../../src/guard/provenance/traceArguments.js';
import { needleOf, numbersIn, normalised } from '../../../src/guard/provenance/valueMatch.js';
import { called, provenance, trace, user } from './conversation.js';

/** What "occurs" means: normalisation, whole tokens, numbers as numbers, and what is not handled. */

const traced = (value: string | number, text: string) => trace(value, [user(text)]) === undefined;

describe('strings', () => {
  it('ignores spacing, case and separators of an identifier such as an IBAN', () => {
    for (const written of ['GB29 NWBK 6016 1331 9268 19', 'gb29nwbk60161331926819', 'GB29-NWBK-6016-1331-9268-19']) {
      expect(traced('GB29NWBK60161331926819', `Pay ${written} today`)).toBe(true);
      expect(traced(written, 'account: gb29_nwbk.6016/1331:9268,19.')).toBe(true);
    }
    expect(traced('gb29nwbk60161331926819', 'Pay GB29NWBK60161331926819 today')).toBe(true);
  });

  it('does not trace a value split where the trusted text is not (issue 31: adding a separator)', () => {
    expect(traced('GB29 NWBK 6016 1331 9268 19', 'Pay GB29NWBK60161331926819 today')).toBe(false);
    expect(traced('pay.co', 'Pay to Payco')).toBe(false);
    expect(traced('pay-co', 'Pay to Payco')).toBe(false);
    expect(traced('alice@corp.com', 'Pay alicecorp.com')).toBe(false);
  });

  it('does not trace a value whose separator moved across letters or digits (issue 31)', () => {
    expect(traced('alicec@orp.com', 'Pay alice@corp.com')).toBe(false);
    expect(traced('bobex@ample.com', 'Pay bob@ex.ample.com')).toBe(false);
    expect(traced('bankc.om/pay', 'Pay at bank.com/pay')).toBe(false);
    expect(traced('paybank.com', 'Pay at pay.bank.com')).toBe(false);
    expect(traced('pay.bank.com', 'Pay at paybank.com')).toBe(false);
    expect(traced('GB29 NWBK6016', 'Pay GB29NWBK 6016')).toBe(false);
    // Changed or all dropped, the separators still trace.
    expect(traced('alice_corp-com', 'Pay alice@corp.com')).toBe(true);
    expect(traced('alicecorpcom', 'Pay alice@corp.com')).toBe(true);
    expect(traced('bank.com.pay', 'Pay at bank.com/pay')).toBe(true);
  });

  it('matches whole tokens only: no part of a token', () => {
    expect(traced('NWBK', 'GB29NWBK60161331926819')).toBe(false);
    expect(traced('GB29NWBK6016133192681', 'GB29NWBK60161331926819')).toBe(false);
    expect(traced('B29NWBK60161331926819', 'GB29 NWBK 6016 1331 9268 19')).toBe(false);
    expect(traced('NWBK 6016', 'GB29 NWBK 6016 1331')).toBe(true);
    expect(traced('ann', 'Send it to Joanna')).toBe(false);
    expect(traced('ann', 'Send it to Ann.')).toBe(true);
  });

  it('applies NFKC and case folding to both sides', () => {
    expect(traced('ＧＢ２９ＮＷＢＫ', 'gb29 nwbk')).toBe(true);
    expect(traced('GB29NWBK', 'ＧＢ２９－ＮＷＢＫ')).toBe(true);
    expect(traced('STRASSE 5A', 'Hauptstraße 5a')).toBe(false);
    expect(traced('HAUPTSTRASSE 5A', 'Hauptstraße 5a')).toBe(false);
    expect(traced('HAUPTSTRAẞE 5A', 'Hauptstraße 5a')).toBe(true);
    expect(traced('ﬁle', 'FILE')).toBe(true);
    // A letter with an accent is another letter.
    expect(traced('Muller', 'Müller')).toBe(false);
  });

  it('traces no blank string (it would occur anywhere), and one without letters or digits only where written', () => {
    // Found by fuzzInjection: an injected send_payment({ to: '' }) ran under provenance when '' counted as traced.
    expect(traced('', 'nothing here')).toBe(false);
    expect(traced('   ', 'nothing here at all')).toBe(false);
    expect(traced('\u3000', 'nothing\u3000here')).toBe(false);
    expect(traced('!!!', 'nothing here')).toBe(false);
    expect(traced('!!!', 'wow!!! yes')).toBe(true);
  });

  it('does not let a string cross from one trusted text into the next', () => {
    expect(trace('GB29NWBK', [user('GB29'), user('NWBK')])).toBeDefined();
  });
});

describe('numbers', () => {
  it('compares a number with the numbers written in the text, by value', () => {
    expect(traced(1000.5, 'Total: 1,000.50 EUR')).toBe(true);
    expect(traced(1000.5, 'Total: 1000.5')).toBe(true);
    expect(traced(100, 'Rent is 100.00 a week')).toBe(true);
    expect(traced(100.0, 'Rent is 100')).toBe(true);
    expect(traced(0.5, 'half: 0.50')).toBe(true);
    expect(traced(100, '$100')).toBe(true);
    expect(traced(100, 'Invoice INV-100: 98.70')).toBe(true);
    expect(traced(98.7, 'Invoice INV-100: 98.70')).toBe(true);
  });

  it('reads a string that is wholly a number as that number', () => {
    expect(traced('1,000.50', 'Total: 1000.5')).toBe(true);
    expect(traced('100', 'Total: 100.00')).toBe(true);
    expect(traced(' 100 ', 'Total: 100')).toBe(true);
    expect(needleOf('１００')).toEqual({ kind: 'number', canonical: '100' });
  });

  it('does not read separators away from a number: 100.00 is not 10000, 1.5 is not 15', () => {
    expect(traced(10000, 'Total: 100.00')).toBe(false);
    expect(traced('10000', 'Total: 100.00')).toBe(false);
    expect(traced('1.5', 'Total: 15')).toBe(false);
    expect(traced(15, 'Total: 1.5')).toBe(false);
    expect(traced(1000, 'Total: 1 000')).toBe(false);
  });

  it('finds no number inside a word or an identifier', () => {
    expect(traced(29, 'GB29NWBK')).toBe(false);
    expect(traced(100, '100EUR')).toBe(false);
    expect(traced(100, 'version 2.100.3')).toBe(false);
  });

  it('reads a minus as a sign only when no letter or digit is just before it', () => {
    expect(traced(-100, 'Balance: -100.00')).toBe(true);
    expect(traced(-100, 'Balance: \u2212100')).toBe(true);
    expect(traced(100, 'Debit: -100')).toBe(true);
    expect(traced(-100, 'Debit: 100')).toBe(false);
    expect(traced(-100, 'INV-100')).toBe(false);
    expect(numbersIn(normalised('2024-01-05'))).toEqual(['2024']);
  });

  it('does not handle: European decimals, leading zeros, words, exponents, digits JavaScript writes with e', () => {
    expect(numbersIn(normalised('1.000,50'))).toEqual([]);
    expect(numbersIn(normalised('1,00'))).toEqual([]);
    expect(traced(7, 'Agent 007')).toBe(false);
    expect(traced('007', 'Agent 007')).toBe(true);
    expect(traced(10, 'ten')).toBe(false);
    expect(traced(1000, '1e3')).toBe(false);
    expect(traced(1e21, '1000000000000000000000')).toBe(false);
  });

  it('compares decimal digits, not floating point: a 20-digit number JavaScript rounded is untraced', () => {
    // The model's 12345678901234567891, read as a JavaScript number, is 12345678901234567000.
    const read = JSON.parse('12345678901234567891') as number;
    expect(traced(read, 'Account 12345678901234567891')).toBe(false);
    expect(traced('12345678901234567891', 'Account 12345678901234567891')).toBe(true);
  });
});

describe('sensitive paths', () => {
  it('traces each value a path reaches: nested keys, every element, every leaf inside an object', () => {
    const p = provenance([user('Pay GB29-NWBK and DE89 3704 100.5 EUR')]);
    const input = {
      to: { iban: 'GB29 NWBK', name: 'Bob' },
      recipients: ['DE89 3704', 'FR76 3000'],
      amount: 100.5,
      memo: true,
      extra: null,
    };
    expect(untracedArgument(input, ['to.iban', 'amount', 'memo', 'extra', 'missing'], p)).toBeUndefined();
    expect(untracedArgument(input, ['recipients[]'], p)).toEqual({
      argument: 'recipients[1]',
      value: 'FR76 3000',
      foundIn: [],
    });
    expect(untracedArgument(input, ['to'], p)).toEqual({ argument: 'to.name', value: 'Bob', foundIn: [] });
    expect(untracedArgument([{ iban: 'x' }, { iban: 'GB29NWBK' }], ['[].iban'], p)).toEqual({
      argument: '[0].iban',
      value: 'x',
      foundIn: [],
    });
  });

  it('reports the first untraced value in the order of the sensitive paths', () => {
    const messages = [user('x'), ...called('read_file', 'pay AAA 55')];
    expect(trace('AAA', messages)).toEqual({ argument: 'recipient', value: 'AAA', foundIn: ['read_file'] });
    expect(trace(55, messages)).toEqual({ argument: 'recipient', value: 55, foundIn: ['read_file'] });
  });
});

describe('normalisation, generated', () => {
  it('traces any string written in user text, but for a blank one', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii' })),
        (value) => {
          expect(traced(value, `pay ${value} now`)).toBe(normalised(value).trim() !== '');
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('separators and case, beyond ASCII', () => {
  // Not ß, İ, ı: their case mappings are other letters (SS, i̇, I; see 'folding into ASCII').
  const letters = ['σ', 'ς', 'Σ', 'ẞ', 'é', 'e\u0301', 'ﬁ', 'Ａ', 'a', '1', '２', 'Ω', 'ǅ', 'ﬀ', 'ſ', '\u212A'];
  const chunk = fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 4 }).map((l) => l.join(''));
  const casing = fc.constantFrom(
    (t: string) => t,
    (t: string) => t.toUpperCase(),
    (t: string) => t.toLowerCase(),
  );

  it('traces the chunks of a text joined by other separators, in another case', () => {
    fc.assert(
      fc.property(
        fc.array(chunk, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(' ', '-', '.', ''),
        fc.constantFrom(' ', '/', '_', ''),
        casing,
        casing,
        (chunks, inText, inValue, caseText, caseValue) => {
          const text = caseText(chunks.join(inText));
          const value = caseValue(chunks.join(inValue));
          fc.pre(!/^[\d２]+$/.test(value));
          // Split where the text is not, the value is other tokens (issue 31); joined, it traces.
          expect(traced(value, `pay ${text} now`)).toBe(inText !== '' || inValue === '' || chunks.length === 1);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('folding into ASCII (issue 31)', () => {
  it('does not fold a look-alike into an ASCII letter: ı is not i, İ not I, ß not ss', () => {
    expect(traced('ıban', 'IBAN')).toBe(false);
    expect(traced('IBAN', 'ıban')).toBe(false);
    expect(traced('İBAN', 'iban')).toBe(false);
    expect(traced('paypaı.com', 'paypal.com')).toBe(false);
    expect(traced('straße.de', 'strasse.de')).toBe(false);
    expect(traced('STRASSE.DE', 'straße.de')).toBe(false);
    // The same text in another case or a compatibility form still folds.
    expect(traced('straẞe.de', 'straße.de')).toBe(true);
    expect(traced('ΙΒΑΝ', 'ιβαν')).toBe(true);
    expect(traced('\u212Aey', 'KEY')).toBe(true);
    expect(traced('ſecret', 'SECRET')).toBe(true);
    expect(traced('I\u0307BAN', 'İban')).toBe(true);
  });

  it('maps a character outside ASCII to an ASCII letter only where NFKC does, over every code point', () => {
    const ascii = /[A-Za-z]/;
    const wrong: string[] = [];
    let caseFoldsToAscii = 0;
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const compatible = c.normalize('NFKC');
      const folded = normalised(c);
      if (ascii.test(c.toLowerCase() + c.toUpperCase())) caseFoldsToAscii++;
      if (ascii.test(compatible) ? folded !== normalised(compatible) : ascii.test(folded)) {
        wrong.push(`U+${cp.toString(16)} ${c} -> ${folded}`);
      }
    }
    expect(wrong).toEqual([]);
    // The code points whose case mapping holds an ASCII letter (ı, İ, ß, ẞ, ſ, K, ﬀ, ŉ, ...) were among them.
    expect(caseFoldsToAscii).toBeGreaterThan(10);
  });

  it('treats each code point whose case mapping holds an ASCII letter by the rule', () => {
    const ascii = /[A-Za-z]/;
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (!ascii.test(c.toLowerCase() + c.toUpperCase())) continue;
      const compatible = c.normalize('NFKC');
      // Mapped by NFKC (K, ﬀ, ſ, ǅ): the same text as its plain form, in any case.
      if (ascii.test(compatible)) expect(traced(`${c}x`, `${compatible.toUpperCase()}X`), c).toBe(true);
      // Not (ı, İ, ß, ẞ, ǰ): never the ASCII its case mapping holds.
      else {
        for (const mapped of [c.toLowerCase(), c.toUpperCase()]) {
          const plain = mapped.replace(/[^A-Za-z]/g, '');
          if (plain !== '') expect(traced(`${c}x`, `${plain}x`), c).toBe(false);
        }
      }
    }
  });
});

describe('separators, generated (issue 31)', () => {
  const SEPARATORS = [' ', '-', '.', '/', '@', '_', ' - '];
  /** A trusted value: chunks of letters b-m and digits (never spelling `pay` or `to`), with a letter. */
  const chunks = fc
    .array(fc.stringMatching(/^[b-m0-9]{1,5}$/), { minLength: 1, maxLength: 4 })
    .filter((c) => /[b-m]/.test(c.join('')));

  it('traces a value only where its token boundaries are the trusted ones, or where it has none', () => {
    fc.assert(
      fc.property(
        chunks.chain((c) => {
          const length = c.join('').length;
          return fc.tuple(
            fc.constant(c),
            fc.array(fc.constantFrom(...SEPARATORS), { minLength: c.length, maxLength: c.length }),
            // For each place between two characters of the value: the separator written there, if any.
            fc.array(fc.option(fc.constantFrom(...SEPARATORS), { nil: '' }), {
              minLength: length - 1,
              maxLength: length - 1,
            }),
            fc.boolean(),
          );
        }),
        ([c, textSeps, valueSeps, upper]) => {
          const trusted = c.map((chunk, i) => (i === 0 ? '' : textSeps[i]) + chunk).join('');
          const chars = [...c.join('')];
          const written = chars.map((char, i) => char + (valueSeps[i] ?? '')).join('');
          const value = upper ? written.toUpperCase() : written;
          const trustedCuts = c.slice(0, -1).map((_, i) => c.slice(0, i + 1).join('').length);
          const valueCuts = valueSeps.flatMap((sep, i) => (sep === '' ? [] : [i + 1]));
          const same = valueCuts.length === 0 || valueCuts.join() === trustedCuts.join();
          expect(traced(value, `Pay to: ${trusted}.`)).toBe(same);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('case folding, over every code point', () => {
  it('treats as the same text two characters that Unicode simple case folding makes one (as the flag iu does)', () => {
    // ᲀ (Cyrillic rounded ve) is в, ͅ (ypogegrammeni) is ι: a lower case alone would miss them.
    const wrong: string[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      for (const other of [c.toUpperCase(), c.toLowerCase()]) {
        if (other === c || [...other].length !== 1 || !new RegExp(`^${c}$`, 'iu').test(other)) continue;
        if (normalised(c) !== normalised(other)) wrong.push(`U+${cp.toString(16)} ${c} ${other}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(traced('ᲀᲁᲂ', 'вдо')).toBe(true);
  });

  it('keeps a look-alike it does not fold as a letter of the value: ı and İ are not dropped', () => {
    expect(traced('ıban', 'ban')).toBe(false);
    expect(traced('İban', 'ban')).toBe(false);
    expect(traced('paypaı', 'paypa')).toBe(false);
  });
});

describe('numbers, signs and grouping', () => {
  it('reads a plus as no sign, in a value and in text', () => {
    expect(traced('+100', 'Credit: 100')).toBe(true);
    expect(traced(-100, 'Credit: +100')).toBe(false);
    expect(traced('-100', 'Credit: +100')).toBe(false);
    expect(numbersIn(normalised('+100 and -5'))).toEqual(['100', '5', '-5']);
  });

  it('reads a string written with a minus as a negative number: not the magnitude alone', () => {
    expect(traced('-100', 'Debit: 100')).toBe(false);
    expect(traced('\u2212100', 'Debit: 100')).toBe(false);
    expect(traced('-100', 'Balance: -100')).toBe(true);
    expect(needleOf('-1,000.50')).toEqual({ kind: 'number', canonical: '-1000.5' });
  });

  it('gives zero no sign: -0 is 0, in a value and in text', () => {
    expect(traced('-0', 'Balance: 0')).toBe(true);
    expect(traced('-0.00', 'Balance: 0')).toBe(true);
    expect(traced(0, 'Balance: -0.00')).toBe(true);
    expect(numbersIn(normalised('-0 and -0.0'))).toEqual(['0', '0']);
    expect(needleOf('-0')).toEqual({ kind: 'number', canonical: '0' });
  });

  it('reads a string of numbers grouped by commas, spaces around, as the number (not as its digit groups)', () => {
    expect(traced(' 1,000.50 ', 'Total: 1000.5')).toBe(true);
    expect(traced('10,000', 'Total: 10000')).toBe(true);
    expect(traced('123,456.7', 'Total: 123456.70')).toBe(true);
    expect(traced('1,000,000', 'Total: 1000000')).toBe(true);
    expect(needleOf('1,234,567')).toEqual({ kind: 'number', canonical: '1234567' });
  });

  it('looks for nothing when JavaScript writes a number with an exponent or not as digits', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e21, 1e-7]) {
      expect(needleOf(value), String(value)).toEqual({ kind: 'nothing' });
    }
    expect(traced(Number.POSITIVE_INFINITY, 'Infinity')).toBe(false);
    expect(needleOf(1e20)).toEqual({ kind: 'number', canonical: '100000000000000000000' });
  });
});
