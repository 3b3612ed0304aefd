import { describe, expect, it } from 'vitest';
import { canonicalMicroTime, canonicalTime, parseRFC3339 } from './time';

describe('RFC 3339 times as metav1.Time reads them', () => {
  it('normalises to UTC whole seconds', () => {
    expect(canonicalTime('2024-01-01T10:00:00Z')).toBe('2024-01-01T10:00:00Z');
    expect(canonicalTime('2024-01-01T10:00:00.999+02:00')).toBe('2024-01-01T08:00:00Z');
    expect(canonicalTime('2024-02-29T23:30:00-01:00')).toBe('2024-03-01T00:30:00Z');
  });

  it('keeps microseconds for MicroTime, which requires exactly six fractional digits', () => {
    expect(canonicalMicroTime('2024-01-01T00:00:00.123456Z')).toBe('2024-01-01T00:00:00.123456Z');
    expect(canonicalMicroTime('2024-01-01T01:00:00.000001+01:00')).toBe('2024-01-01T00:00:00.000001Z');
    expect(() => canonicalMicroTime('2024-01-01T00:00:00Z')).toThrow(
      'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
    );
  });

  it('fails with time.Parse texts', () => {
    const cases: [string, string][] = [
      ['2024-1-01T00:00:00Z', 'parsing time "2024-1-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-01T00:00:00Z" as "01"'],
      ['2024-01-01 00:00:00Z', 'parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"'],
      ['2024-01-01T00:00:00', 'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'],
      ['2024-02-30T00:00:00Z', 'parsing time "2024-02-30T00:00:00Z": day out of range'],
      ['2024-01-01T25:00:00Z', 'parsing time "2024-01-01T25:00:00Z": hour out of range'],
      ['2024-01-01T00:00:00Zjunk', 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
    ];
    for (const [input, text] of cases) expect(() => parseRFC3339(input), input).toThrow(text);
  });
});
