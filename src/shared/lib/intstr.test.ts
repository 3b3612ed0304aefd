import { describe, expect, it } from 'vitest';
import { getScaledValueFromIntOrPercent, intOrStringIntValue, intOrStringToString, percentValue } from './intstr';

describe('IntOrString', () => {
  it('scales percentages with the rounding direction asked for', () => {
    // 10 replicas, maxSurge 25% → 3 (rounded up), maxUnavailable 25% → 2 (rounded down).
    expect(getScaledValueFromIntOrPercent('25%', 10, true)).toBe(3);
    expect(getScaledValueFromIntOrPercent('25%', 10, false)).toBe(2);
    expect(getScaledValueFromIntOrPercent(4, 10, false)).toBe(4);
  });

  it('rejects strings that are not percentages', () => {
    expect(() => getScaledValueFromIntOrPercent('abc', 10, true)).toThrow('invalid value for IntOrString: invalid type: string is not a percentage');
    expect(() => getScaledValueFromIntOrPercent('x%', 10, true)).toThrow(/invalid value "x%"/);
  });

  it('reads and prints values', () => {
    expect(intOrStringIntValue('8080')).toBe(8080);
    expect(intOrStringIntValue('http')).toBe(0);
    expect(intOrStringToString(5)).toBe('5');
    expect(percentValue('40%')).toBe(40);
    expect(percentValue(40)).toBeUndefined();
  });
});
