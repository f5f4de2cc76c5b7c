/**
 * Whether `value` is a whole multiple of `divisor`, both read as the decimals JavaScript
 * writes for them (`String(n)`: the shortest decimal that reads back as the same number, which
 * is the literal the model sent for any number of up to 15 significant digits). The division
 * is done exactly, on those decimals scaled to whole numbers: `multipleOf: 0.01` takes 0.03,
 * 1.1 and 100.27 and refuses 0.005, 1.001 and 1e-12, with no tolerance to tune, at any
 * magnitude. (Binary floating point would refuse 0.3 for 0.1, since 0.3 / 0.1 is
 * 2.9999999999999996, and a tolerance accepts values far smaller than the divisor.)
 * `divisor` is a finite number above 0; `value` is finite.
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  // The fast path for safe whole numbers, where the remainder is exact: the path below gives the same answer, slower.
  // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, the exact path agrees for safe integers
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) {
    return value % divisor === 0;
  }
  const v = decimalOf(value);
  const d = decimalOf(divisor);
  const exponent = Math.min(v.exponent, d.exponent);
  return (v.digits * 10n ** BigInt(v.exponent - exponent)) % (d.digits * 10n ** BigInt(d.exponent - exponent)) === 0n;
}

/** |n| as digits × 10^exponent, from its shortest decimal form (`1.5e-7`, `100.27`, `1e+21`). */
function decimalOf(n: number): { digits: bigint; exponent: number } {
  // String(n) always has a mantissa, and the mantissa a whole part; the exponent and the fraction may be absent.
  const [mantissa, exponent] = String(Math.abs(n)).split('e');
  const [whole, fraction = ''] = mantissa!.split('.');
  return { digits: BigInt(whole! + fraction), exponent: Number(exponent ?? 0) - fraction.length };
}
