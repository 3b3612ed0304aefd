// resource.Quantity (apimachinery/pkg/api/resource/quantity.go): parsing, the canonical string the API server
// serializes, and exact arithmetic. Values are exact decimals (unscaled × 10^exp) held in BigInt, as Go's
// int64Amount/inf.Dec are exact; only toNumber() is approximate.

export const QuantityFormat = {
  DecimalExponent: 'DecimalExponent', // 12e6
  BinarySI: 'BinarySI', // 12Mi
  DecimalSI: 'DecimalSI', // 12M
} as const;
export type QuantityFormat = (typeof QuantityFormat)[keyof typeof QuantityFormat];

/** A parsed quantity: plain data, safe to structuredClone. Treat as immutable. */
export interface Quantity {
  /** The value is unscaled × 10^exp. */
  readonly unscaled: bigint;
  readonly exp: number;
  readonly format: QuantityFormat;
  /** The input string, kept when it already was in canonical form (Go keeps it the same way). */
  readonly cached?: string;
}

export const ErrFormatWrong = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const ErrNumeric = 'unable to parse numeric part of quantity';
export const ErrSuffix = "unable to parse quantity's suffix";

export class QuantityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuantityError';
  }
}

const decimalSuffixes: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const decimalSuffixByExp = new Map(Object.entries(decimalSuffixes).map(([s, e]) => [e, s]));
const binarySuffixByExp = new Map<number, string>([[0, ''], ...Object.entries(binarySuffixes).map(([s, e]) => [e, s] as [number, string])]);

const suffixChars = 'eEinumkKMGTP';
const maxInt64 = (1n << 63n) - 1n;
const maxInt64Factors = 18;
const nanoExp = -9;

function isDigit(c: string): boolean {
  return c >= '0' && c <= '9';
}

interface QuantityParts {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

/** parseQuantityString, step for step: the error cases and odd accepted inputs ("1.", ".", "-") match Go. */
function parseQuantityString(str: string): QuantityParts {
  let positive = true;
  let pos = 0;
  const end = str.length;
  let num = '';
  let denom = '';
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') pos++;
  }
  // strip leading zeros
  for (;;) {
    if (pos >= end) return { positive, num: '0', denom: '', suffix: '' };
    if (str[pos] !== '0') break;
    pos++;
  }
  // numerator
  let i = pos;
  for (; i < end && isDigit(str[i]); i++);
  if (i >= end) return { positive, num: str.slice(pos, end) || '0', denom: '', suffix: '' };
  num = str.slice(pos, i) || '0';
  pos = i;
  // denominator
  if (str[pos] === '.') {
    pos++;
    let j = pos;
    for (; j < end && isDigit(str[j]); j++);
    if (j >= end) return { positive, num, denom: str.slice(pos, end), suffix: '' };
    denom = str.slice(pos, j);
    pos = j;
  }
  // suffix: letters, then an optional signed exponent
  const suffixStart = pos;
  let k = pos;
  for (; k < end && suffixChars.includes(str[k]); k++);
  if (k >= end) return { positive, num, denom, suffix: str.slice(suffixStart) };
  pos = k;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  for (let m = pos; ; m++) {
    if (m >= end) return { positive, num, denom, suffix: str.slice(suffixStart) };
    if (!isDigit(str[m])) break;
  }
  throw new QuantityError(ErrFormatWrong);
}

function interpretSuffix(suffix: string): { base: 10 | 2; exponent: number; format: QuantityFormat } | undefined {
  if (Object.hasOwn(decimalSuffixes, suffix)) return { base: 10, exponent: decimalSuffixes[suffix], format: QuantityFormat.DecimalSI };
  if (Object.hasOwn(binarySuffixes, suffix)) return { base: 2, exponent: binarySuffixes[suffix], format: QuantityFormat.BinarySI };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const rest = suffix.slice(1);
    if (!/^[+-]?[0-9]+$/.test(rest)) return undefined;
    const n = Number(rest);
    if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 31 - 1) return undefined;
    return { base: 10, exponent: n, format: QuantityFormat.DecimalExponent };
  }
  return undefined;
}

/** ParseQuantity: throws QuantityError with Go's message (ErrFormatWrong, ErrNumeric, ErrSuffix). */
export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityError(ErrFormatWrong);
  if (str === '0') return { unscaled: 0n, exp: 0, format: QuantityFormat.DecimalSI };
  const { positive, num, denom, suffix } = parseQuantityString(str);
  const sfx = interpretSuffix(suffix);
  if (!sfx) throw new QuantityError(ErrSuffix);
  const { base, exponent } = sfx;
  let format = sfx.format;

  // Fast path (Go's int64Amount): exact, and keeps the input string when it is already canonical.
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (base === 10) {
    scale = exponent;
    precision = maxInt64Factors - (num.length + denom.length);
  } else if (exponent >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc(Math.fround(Math.fround(exponent) * 3) / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= nanoExp) {
      const shifted = num + denom;
      const value = BigInt(shifted);
      const result = value * mantissa;
      if (result <= maxInt64) {
        const signed = positive ? result : -result;
        let canonical = false;
        if (format === QuantityFormat.BinarySI) canonical = exponent % 10 === 0 && (value & 7n) !== 0n;
        else canonical = scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return canonical ? { unscaled: signed, exp: scale, format, cached: str } : { unscaled: signed, exp: scale, format };
      }
    }
  }

  // Slow path (Go's inf.Dec): apply the suffix, round non-zero values up to 1n, cap binary values.
  let unscaled = BigInt(num + denom);
  let exp = -denom.length;
  if (base === 10) exp += exponent;
  else unscaled *= 1n << BigInt(exponent);
  if (unscaled !== 0n && exp < nanoExp) {
    const div = 10n ** BigInt(nanoExp - exp);
    const q = unscaled / div;
    unscaled = unscaled % div === 0n ? q : q + 1n;
    exp = nanoExp;
  }
  if (format === QuantityFormat.BinarySI) {
    if (compareAbs(unscaled, exp, maxInt64, 0) > 0) {
      unscaled = maxInt64;
      exp = 0;
    }
    if (unscaled !== 0n && compareAbs(unscaled, exp, 1n, 0) < 0) format = QuantityFormat.DecimalSI;
  }
  return { unscaled: positive ? unscaled : -unscaled, exp, format };
}

/** Like parseQuantity, without throwing. */
export function tryParseQuantity(str: string): { quantity: Quantity; error?: undefined } | { quantity?: undefined; error: string } {
  try {
    return { quantity: parseQuantity(str) };
  } catch (err) {
    if (err instanceof QuantityError) return { error: err.message };
    throw err;
  }
}

/**
 * Quantity.UnmarshalJSON: a JSON string or number (YAML `cpu: 0.5` arrives as a number). null is the zero
 * quantity; anything else fails with ErrFormatWrong, as Go parses the raw JSON text.
 */
export function parseQuantityJSON(value: unknown): Quantity {
  if (value === null) return zeroQuantity();
  if (typeof value === 'string') return parseQuantity(value.trim());
  if (typeof value === 'number') return parseQuantity(formatJSONNumber(value));
  if (typeof value === 'bigint') return parseQuantity(value.toString());
  throw new QuantityError(ErrFormatWrong);
}

/** A float64 as Go's encoding/json writes it (JavaScript's shortest form agrees except for exponent padding). */
function formatJSONNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'NaN';
}

export function zeroQuantity(format: QuantityFormat = QuantityFormat.DecimalSI): Quantity {
  return { unscaled: 0n, exp: 0, format };
}

/** resource.NewQuantity(value, format). */
export function newQuantity(value: number | bigint, format: QuantityFormat = QuantityFormat.DecimalSI): Quantity {
  return { unscaled: toBigInt(value), exp: 0, format };
}

/** resource.NewMilliQuantity(millis, format). */
export function newMilliQuantity(millis: number | bigint, format: QuantityFormat = QuantityFormat.DecimalSI): Quantity {
  return { unscaled: toBigInt(millis), exp: -3, format };
}

/** resource.NewScaledQuantity(value, scale): value × 10^scale. */
export function newScaledQuantity(value: number | bigint, scale: number, format: QuantityFormat = QuantityFormat.DecimalSI): Quantity {
  return { unscaled: toBigInt(value), exp: scale, format };
}

function toBigInt(n: number | bigint): bigint {
  if (typeof n === 'bigint') return n;
  if (!Number.isInteger(n)) throw new RangeError(`not an integer: ${n}`);
  return BigInt(n);
}

export function isZero(q: Quantity): boolean {
  return q.unscaled === 0n;
}

export function sign(q: Quantity): -1 | 0 | 1 {
  return q.unscaled === 0n ? 0 : q.unscaled < 0n ? -1 : 1;
}

/** Brings two values to a common exponent. */
function align(a: bigint, ae: number, b: bigint, be: number): [bigint, bigint, number] {
  if (ae === be) return [a, b, ae];
  if (ae > be) return [a * 10n ** BigInt(ae - be), b, be];
  return [a, b * 10n ** BigInt(be - ae), ae];
}

function compareAbs(a: bigint, ae: number, b: bigint, be: number): number {
  const [x, y] = align(a < 0n ? -a : a, ae, b < 0n ? -b : b, be);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Cmp: -1, 0 or 1. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const [x, y] = align(a.unscaled, a.exp, b.unscaled, b.exp);
  return x === y ? 0 : x < y ? -1 : 1;
}

export function quantitiesEqual(a: Quantity, b: Quantity): boolean {
  return compareQuantities(a, b) === 0;
}

/** a.Add(b): exact; keeps a's format unless a is zero (then b's), as Go does. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const [x, y, exp] = align(a.unscaled, a.exp, b.unscaled, b.exp);
  return { unscaled: x + y, exp, format: isZero(a) ? b.format : a.format };
}

/** a.Sub(b), with the same format rule as addQuantities. */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  const [x, y, exp] = align(a.unscaled, a.exp, b.unscaled, b.exp);
  return { unscaled: x - y, exp, format: isZero(a) ? b.format : a.format };
}

export function negateQuantity(q: Quantity): Quantity {
  return { unscaled: -q.unscaled, exp: q.exp, format: q.format };
}

/** The value at scale 10^scale as an integer, rounded away from zero (ScaledValue). */
function scaledBigInt(q: Quantity, scale: number): bigint {
  const shift = q.exp - scale;
  if (shift >= 0) return q.unscaled * 10n ** BigInt(shift);
  const div = 10n ** BigInt(-shift);
  const quotient = q.unscaled / div; // truncates toward zero
  if (q.unscaled % div === 0n) return quotient;
  return q.unscaled < 0n ? quotient - 1n : quotient + 1n;
}

/** MilliValue(): milli-units, rounded away from zero. Exact up to 2^53. */
export function toMillis(q: Quantity): number {
  return Number(scaledBigInt(q, -3));
}

/** Value(): whole units, rounded away from zero (1500m → 2). */
export function toValue(q: Quantity): number {
  return Number(scaledBigInt(q, 0));
}

/** ScaledValue(scale) as a BigInt (exact). */
export function toScaledBigInt(q: Quantity, scale: number): bigint {
  return scaledBigInt(q, scale);
}

/** AsApproximateFloat64(). */
export function toNumber(q: Quantity): number {
  if (q.exp >= 0) return Number(q.unscaled) * 10 ** q.exp;
  return Number(q.unscaled) / 10 ** -q.exp;
}

function removeFactors(value: bigint, base: bigint): [bigint, number] {
  let times = 0;
  let v = value;
  while (v !== 0n && v % base === 0n) {
    v /= base;
    times++;
  }
  return [v, times];
}

/** Quantity.String(): the canonical form the API server writes ("1", "500m", "1Gi", "1536Mi", "1e3"). */
export function quantityToString(q: Quantity): string {
  if (q.cached !== undefined) return q.cached;
  if (q.unscaled === 0n) return '0';
  let format = q.format;
  if (format === QuantityFormat.BinarySI) {
    const small = compareAbs(q.unscaled, q.exp, 1024n, 0) < 0;
    // Binary only when the value is an integer, else precision would be lost.
    const integral = q.exp >= 0 || q.unscaled % 10n ** BigInt(-q.exp) === 0n;
    if (small || !integral) format = QuantityFormat.DecimalSI;
  }
  if (format === QuantityFormat.BinarySI) {
    const whole = scaledBigInt(q, 0);
    const [amount, times] = removeFactors(whole, 1024n);
    const suffix = binarySuffixByExp.get(times * 10);
    if (suffix !== undefined) return `${amount}${suffix}`;
    // Beyond Ei: keep multiplying back into the largest suffix.
    return `${amount * 1024n ** BigInt(times - 6)}Ei`;
  }
  let [amount, times] = removeFactors(q.unscaled, 10n);
  let exponent = q.exp + times;
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  if (format === QuantityFormat.DecimalExponent) return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
  const suffix = decimalSuffixByExp.get(exponent);
  if (suffix !== undefined) return `${amount}${suffix}`;
  // Outside n…E: fold the excess into the number, as no suffix exists for it.
  if (exponent > 18) return `${amount * 10n ** BigInt(exponent - 18)}E`;
  return `${amount}e${exponent}`;
}

/** Parses and re-serializes: what the API server stores for a quantity field. */
export function canonicalQuantity(input: string | number): string {
  return quantityToString(typeof input === 'number' ? parseQuantityJSON(input) : parseQuantity(input));
}
