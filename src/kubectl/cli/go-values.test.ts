import { describe, expect, it } from 'vitest';
import { formatGoDuration, parseGoBool, parseGoDuration, parseGoInt } from './go-values';

describe('Go value parsers', () => {
  it('ParseInt with base 0', () => {
    expect(parseGoInt('42')).toEqual({ ok: true, value: 42 });
    expect(parseGoInt('-7')).toEqual({ ok: true, value: -7 });
    expect(parseGoInt('0x1F')).toEqual({ ok: true, value: 31 });
    expect(parseGoInt('010')).toEqual({ ok: true, value: 8 });
    expect(parseGoInt('0b101')).toEqual({ ok: true, value: 5 });
    expect(parseGoInt('1_000')).toEqual({ ok: true, value: 1000 });
    expect(parseGoInt('1__0')).toEqual({ ok: false, error: 'strconv.ParseInt: parsing "1__0": invalid syntax' });
    expect(parseGoInt('0x_1_0')).toEqual({ ok: true, value: 16 });
    expect(parseGoInt('x')).toEqual({ ok: false, error: 'strconv.ParseInt: parsing "x": invalid syntax' });
    expect(parseGoInt('')).toEqual({ ok: false, error: 'strconv.ParseInt: parsing "": invalid syntax' });
    expect(parseGoInt('3.5')).toEqual({ ok: false, error: 'strconv.ParseInt: parsing "3.5": invalid syntax' });
    expect(parseGoInt('99999999999999999999')).toEqual({ ok: false, error: 'strconv.ParseInt: parsing "99999999999999999999": value out of range' });
  });

  it('ParseBool', () => {
    for (const t of ['1', 't', 'T', 'true', 'TRUE', 'True']) expect(parseGoBool(t)).toEqual({ ok: true, value: true });
    for (const f of ['0', 'f', 'F', 'false', 'FALSE', 'False']) expect(parseGoBool(f)).toEqual({ ok: true, value: false });
    expect(parseGoBool('yes')).toEqual({ ok: false, error: 'strconv.ParseBool: parsing "yes": invalid syntax' });
  });

  it('ParseDuration, in milliseconds', () => {
    expect(parseGoDuration('0')).toEqual({ ok: true, value: 0 });
    expect(parseGoDuration('20s')).toEqual({ ok: true, value: 20_000 });
    expect(parseGoDuration('1h30m')).toEqual({ ok: true, value: 5_400_000 });
    expect(parseGoDuration('1.5s')).toEqual({ ok: true, value: 1500 });
    expect(parseGoDuration('250ms')).toEqual({ ok: true, value: 250 });
    expect(parseGoDuration('-2m')).toEqual({ ok: true, value: -120_000 });
    expect(parseGoDuration('5')).toEqual({ ok: false, error: 'time: missing unit in duration "5"' });
    expect(parseGoDuration('5x')).toEqual({ ok: false, error: 'time: unknown unit "x" in duration "5x"' });
    expect(parseGoDuration('abc')).toEqual({ ok: false, error: 'time: invalid duration "abc"' });
    expect(parseGoDuration('')).toEqual({ ok: false, error: 'time: invalid duration ""' });
  });

  it('Duration.String', () => {
    expect(formatGoDuration(0)).toBe('0s');
    expect(formatGoDuration(20_000)).toBe('20s');
    expect(formatGoDuration(60_000)).toBe('1m0s');
    expect(formatGoDuration(5_400_000)).toBe('1h30m0s');
    expect(formatGoDuration(1500)).toBe('1.5s');
    expect(formatGoDuration(250)).toBe('250ms');
  });
});
