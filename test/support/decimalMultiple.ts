/**
 * Whether `value` is a whole multiple of `divisor` when both are read as the decimals they are
 * written as (`0.3` and `0.1`, not their binary approximations): the oracle's own reading of the
 * binder's decimal `multipleOf`, written independently of it (exact BigInt arithmetic on the
 * shortest decimal text of each number).
 */
export function isDecimalMultiple(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  const a = exactDecimal(value);
  const b = exactDecimal(divisor);
  const scale = Math.max(a.exponent, b.exponent);
  const numerator = a.digits * 10n ** BigInt(scale - a.exponent);
  const denominator = b.digits * 10n ** BigInt(scale - b.exponent);
  return numerator % denominator === 0n;
}

/** `n` as digits × 10^-exponent, from its shortest round-trip text (`1.5e-7` included). */
function exactDecimal(n: number): { digits: bigint; exponent: number } {
  const [mantissa = '0', power = '0'] = String(Math.abs(n)).toLowerCase().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  let exponent = fraction.length - Number(power);
  let digits = BigInt(whole + fraction);
  if (exponent < 0) {
    digits *= 10n ** BigInt(-exponent);
    exponent = 0;
  }
  return { digits, exponent };
}
