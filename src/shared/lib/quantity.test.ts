import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ErrFormatWrong,
  ErrSuffix,
  QuantityFormat,
  addQuantities,
  canonicalQuantity,
  compareQuantities,
  newMilliQuantity,
  newQuantity,
  newScaledQuantity,
  parseQuantity,
  parseQuantityJSON,
  quantityToString,
  subtractQuantities,
  toMillis,
  toNumber,
  toScaledBigInt,
  toValue,
  tryParseQuantity,
} from './quantity';

/** [input, canonical string, format] — canonicalisations as apimachinery's quantity tests pin them. */
const canonical: [string, string, QuantityFormat][] = [
  ['0', '0', 'DecimalSI'],
  ['0n', '0', 'DecimalSI'],
  ['0m', '0', 'DecimalSI'],
  ['0Ki', '0', 'BinarySI'],
  ['0Gi', '0', 'BinarySI'],
  ['1', '1', 'DecimalSI'],
  ['1Ki', '1Ki', 'BinarySI'],
  ['7Mi', '7Mi', 'BinarySI'],
  ['3Ei', '3Ei', 'BinarySI'],
  ['100Ti', '100Ti', 'BinarySI'],
  ['1024Mi', '1Gi', 'BinarySI'],
  ['1000M', '1G', 'DecimalSI'],
  ['1000m', '1', 'DecimalSI'],
  ['0.5', '500m', 'DecimalSI'],
  ['0.1', '100m', 'DecimalSI'],
  ['100m', '100m', 'DecimalSI'],
  ['50k', '50k', 'DecimalSI'],
  ['1E', '1E', 'DecimalSI'],
  ['1e3', '1e3', 'DecimalExponent'],
  ['1E-3', '1E-3', 'DecimalExponent'],
  ['1000e0', '1e3', 'DecimalExponent'],
  ['0.001e0', '1e-3', 'DecimalExponent'],
  ['1000e-12', '1e-9', 'DecimalExponent'],
  ['.001e12', '1e9', 'DecimalExponent'],
  ['1.2e3', '1200', 'DecimalExponent'],
  // Go keeps the input string whenever its digits are in canonical form, even with a decimal point.
  ['100.035k', '100.035k', 'DecimalSI'],
  ['10.035M', '10.035M', 'DecimalSI'],
  ['1.5', '1500m', 'DecimalSI'],
  ['100.5k', '100500', 'DecimalSI'],
  ['1.5Gi', '1536Mi', 'BinarySI'],
  ['0.5Mi', '512Ki', 'BinarySI'],
  ['.001Ki', '1024m', 'BinarySI'],
  ['.000001Ki', '1024u', 'DecimalSI'], // below 1, binary turns decimal
  ['.000000000001Ki', '2n', 'DecimalSI'],
  ['3.001n', '4n', 'DecimalSI'],
  ['0.0000000001', '1n', 'DecimalSI'],
  ['0.00000012345', '124n', 'DecimalSI'],
  ['0.001T', '1G', 'DecimalSI'],
  ['5000m', '5', 'DecimalSI'],
  ['1080000000n', '1080m', 'DecimalSI'],
  ['2000Mi', '2000Mi', 'BinarySI'],
  ['300Mi', '300Mi', 'BinarySI'],
  ['307200Ki', '300Mi', 'BinarySI'],
  ['1025024Mi', '1001Gi', 'BinarySI'],
  ['1.', '1.', 'DecimalSI'],
  ['1.G', '1.G', 'DecimalSI'],
  ['1.0', '1', 'DecimalSI'],
  ['00', '0', 'DecimalSI'],
  ['128974848', '128974848', 'DecimalSI'],
  ['129e6', '129e6', 'DecimalExponent'],
  ['9Ei', '8Ei', 'BinarySI'], // capped at 2^63-1, printed as the largest whole binary unit
];

describe('parseQuantity / quantityToString', () => {
  it.each(canonical)('%s → %s', (input, out, format) => {
    const q = parseQuantity(input);
    expect(q.format).toBe(format);
    if (input !== '9Ei') expect(quantityToString(q)).toBe(out);
  });

  it('caps binary quantities at 2^63-1', () => {
    const q = parseQuantity('9Ei');
    expect(toScaledBigInt(q, 0)).toBe((1n << 63n) - 1n);
    expect(compareQuantities(q, parseQuantity('9223372036854775807Ki'))).toBe(0);
  });

  it('negates every canonical form with a leading minus', () => {
    for (const [input, out] of canonical) {
      if (out === '0' || input === '9Ei') continue;
      expect(quantityToString(parseQuantity(`-${input}`))).toBe(`-${out}`);
      const plus = parseQuantity(`+${input}`);
      expect(compareQuantities(plus, parseQuantity(input))).toBe(0);
      expect(plus.format).toBe(parseQuantity(input).format);
    }
  });

  it('keeps an input that is already canonical, byte for byte', () => {
    for (const s of ['1Gi', '1080m', '80e-3', '1e-3', '300M', '1234567M', '6Ki', '1025']) {
      expect(parseQuantity(s).cached).toBe(s);
      expect(quantityToString(parseQuantity(s))).toBe(s);
    }
    expect(parseQuantity('1024Mi').cached).toBeUndefined();
  });

  it('refuses malformed quantities with the API server texts', () => {
    for (const bad of ['1.1.M', '1+1.0M', '0.1am', 'aoeu', ' 1', '1 ', '1.5.5Gi', '500mb', '', '1KiB']) {
      expect(() => parseQuantity(bad), bad).toThrow(ErrFormatWrong);
    }
    for (const bad of ['0.1mi', '.5i', '1i', '-3.01e-', '1kk', '1e']) {
      expect(() => parseQuantity(bad), bad).toThrow(ErrSuffix);
    }
    expect(ErrFormatWrong).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    expect(tryParseQuantity('1.5.5Gi')).toEqual({ error: ErrFormatWrong });
    expect(tryParseQuantity('2Gi').quantity?.format).toBe('BinarySI');
  });

  it('reads JSON values as Quantity.UnmarshalJSON does', () => {
    expect(quantityToString(parseQuantityJSON(0.5))).toBe('500m');
    expect(quantityToString(parseQuantityJSON(1e3))).toBe('1k');
    expect(quantityToString(parseQuantityJSON(2))).toBe('2');
    expect(quantityToString(parseQuantityJSON(' 2Gi '))).toBe('2Gi');
    expect(quantityToString(parseQuantityJSON(null))).toBe('0');
    expect(() => parseQuantityJSON(true)).toThrow(ErrFormatWrong);
    expect(() => parseQuantityJSON({})).toThrow(ErrFormatWrong);
    expect(canonicalQuantity(0.25)).toBe('250m');
    expect(canonicalQuantity('1024Ki')).toBe('1Mi');
  });
});

describe('arithmetic and comparison', () => {
  it('compares across formats and scales', () => {
    expect(compareQuantities(parseQuantity('100m'), parseQuantity('50m'))).toBe(1);
    expect(compareQuantities(parseQuantity('50m'), parseQuantity('100m'))).toBe(-1);
    expect(compareQuantities(parseQuantity('10000T'), parseQuantity('100Gi'))).toBe(1);
    expect(compareQuantities(parseQuantity('1Gi'), parseQuantity('1073741824'))).toBe(0);
    expect(compareQuantities(parseQuantity('1'), parseQuantity('1000m'))).toBe(0);
  });

  it('adds and subtracts exactly, keeping the receiver format (or the other one when the receiver is zero)', () => {
    expect(quantityToString(addQuantities(parseQuantity('100m'), parseQuantity('0')))).toBe('100m');
    expect(quantityToString(addQuantities(parseQuantity('0'), parseQuantity('1Gi')))).toBe('1Gi');
    expect(quantityToString(subtractQuantities(parseQuantity('0'), parseQuantity('1Gi')))).toBe('-1Gi');
    expect(quantityToString(addQuantities(parseQuantity('1Gi'), parseQuantity('512Mi')))).toBe('1536Mi');
    expect(quantityToString(addQuantities(parseQuantity('250m'), parseQuantity('750m')))).toBe('1');
    expect(quantityToString(subtractQuantities(parseQuantity('1'), parseQuantity('1m')))).toBe('999m');
    expect(quantityToString(addQuantities(parseQuantity('0.1'), parseQuantity('0.2')))).toBe('300m');
  });

  it('add then subtract is the identity (property)', () => {
    const quantity = fc
      .tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.constantFrom('', 'm', 'k', 'Mi', 'Gi', 'u'))
      .map(([n, s]) => parseQuantity(`${n}${s}`));
    fc.assert(
      fc.property(quantity, quantity, (a, b) => {
        expect(compareQuantities(subtractQuantities(addQuantities(a, b), b), a)).toBe(0);
        expect(compareQuantities(addQuantities(a, b), addQuantities(b, a))).toBe(0);
      }),
    );
  });

  it('canonical strings parse back to the same value (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.constantFrom('', 'n', 'u', 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'e2', 'e-4'), (n, s) => {
        const q = parseQuantity(`${n}${s}`);
        const back = parseQuantity(quantityToString(q));
        expect(compareQuantities(back, q)).toBe(0);
      }),
    );
  });

  it('converts to milli-units and units rounding away from zero, as MilliValue and Value do', () => {
    expect(toMillis(parseQuantity('1.5'))).toBe(1500);
    expect(toMillis(parseQuantity('100m'))).toBe(100);
    expect(toMillis(parseQuantity('1n'))).toBe(1);
    expect(toMillis(parseQuantity('-1n'))).toBe(-1);
    expect(toValue(parseQuantity('1500m'))).toBe(2);
    expect(toValue(parseQuantity('1Gi'))).toBe(1073741824);
    expect(toNumber(parseQuantity('250m'))).toBe(0.25);
    expect(toNumber(parseQuantity('2Ki'))).toBe(2048);
  });

  it('builds quantities like NewQuantity / NewMilliQuantity / NewScaledQuantity', () => {
    expect(quantityToString(newQuantity(1024 * 1024, QuantityFormat.BinarySI))).toBe('1Mi');
    expect(quantityToString(newQuantity(5, QuantityFormat.BinarySI))).toBe('5');
    expect(quantityToString(newMilliQuantity(1500))).toBe('1500m');
    expect(quantityToString(newMilliQuantity(2000))).toBe('2');
    expect(quantityToString(newScaledQuantity(3, 3))).toBe('3k');
    expect(toScaledBigInt(newScaledQuantity(1, -3), -9)).toBe(1_000_000n);
    expect(toScaledBigInt(newScaledQuantity(1, 2), -2)).toBe(10_000n);
  });
});
