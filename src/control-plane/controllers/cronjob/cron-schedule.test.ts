import { describe, expect, it } from 'vitest';
import { formatRFC3339InZone, parseStandard } from './cron-schedule';

const at = (s: string) => Date.parse(s);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

describe('parseStandard (robfig/cron ParseStandard semantics)', () => {
  it('computes the next minute strictly after t', () => {
    const s = parseStandard('*/1 * * * *');
    expect(iso(s.next(at('2026-01-01T12:00:00Z')))).toBe('2026-01-01T12:01:00.000Z');
    expect(iso(s.next(at('2026-01-01T12:00:59.900Z')))).toBe('2026-01-01T12:01:00.000Z');
    expect(iso(parseStandard('* * * * *').next(at('2026-01-01T12:00:30Z')))).toBe('2026-01-01T12:01:00.000Z');
  });

  it('reads ranges, steps, lists and names as robfig does', () => {
    expect(iso(parseStandard('*/15 9-17 * * MON-FRI').next(at('2026-01-02T17:50:00Z')))).toBe('2026-01-05T09:00:00.000Z');
    // "N/step" is "N-max/step".
    expect(iso(parseStandard('5/20 * * * *').next(at('2026-01-01T12:26:00Z')))).toBe('2026-01-01T12:45:00.000Z');
    expect(iso(parseStandard('0 0 1 jan,jul *').next(at('2026-02-01T00:00:00Z')))).toBe('2026-07-01T00:00:00.000Z');
  });

  it('ORs day-of-month and day-of-week when both are restricted, ANDs when one is a star', () => {
    // 2026-01-01 is a Thursday; the 15th is a Thursday too; Monday the 5th matches the day of week.
    expect(iso(parseStandard('0 0 15 * 1').next(at('2026-01-01T12:00:00Z')))).toBe('2026-01-05T00:00:00.000Z');
    expect(iso(parseStandard('0 0 15 * *').next(at('2026-01-01T12:00:00Z')))).toBe('2026-01-15T00:00:00.000Z');
    // "*/1" is still a star for robfig; "*/2" is a restriction.
    expect(iso(parseStandard('0 0 15 * */1').next(at('2026-01-01T12:00:00Z')))).toBe('2026-01-15T00:00:00.000Z');
    // */2 = Sun, Tue, Thu, Sat: Saturday the 3rd.
    expect(iso(parseStandard('0 0 15 * */2').next(at('2026-01-01T12:00:00Z')))).toBe('2026-01-03T00:00:00.000Z');
  });

  it('supports the descriptors and @every', () => {
    expect(iso(parseStandard('@hourly').next(at('2026-01-01T12:00:00Z')))).toBe('2026-01-01T13:00:00.000Z');
    expect(iso(parseStandard('@daily').next(at('2026-01-01T12:00:00Z')))).toBe('2026-01-02T00:00:00.000Z');
    expect(iso(parseStandard('@weekly').next(at('2026-01-01T12:00:00Z')))).toBe('2026-01-04T00:00:00.000Z');
    expect(iso(parseStandard('@monthly').next(at('2026-01-01T12:00:00Z')))).toBe('2026-02-01T00:00:00.000Z');
    expect(iso(parseStandard('@yearly').next(at('2026-01-01T12:00:00Z')))).toBe('2027-01-01T00:00:00.000Z');
    expect(iso(parseStandard('@every 90s').next(at('2026-01-01T12:00:00.400Z')))).toBe('2026-01-01T12:01:30.000Z');
  });

  it('computes times in the TZ prefix zone', () => {
    // 09:00 in Tokyo (+09:00) is 00:00 UTC.
    expect(iso(parseStandard('TZ=Asia/Tokyo 0 9 * * *').next(at('2026-01-01T12:00:00Z')))).toBe('2026-01-02T00:00:00.000Z');
    expect(() => parseStandard('TZ=Mars/Olympus 0 9 * * *')).toThrow('provided bad location Mars/Olympus: unknown time zone Mars/Olympus');
  });

  it('has no next time for a schedule that never happens', () => {
    expect(parseStandard('0 0 31 2 *').next(at('2026-01-01T00:00:00Z'))).toBeUndefined();
  });

  it("throws robfig's errors", () => {
    expect(() => parseStandard('* * * *')).toThrow('expected exactly 5 fields, found 4: [* * * *]');
    expect(() => parseStandard('60 * * * *')).toThrow('end of range (60) above maximum (59): 60');
    expect(() => parseStandard('@fortnightly')).toThrow('unrecognized descriptor: @fortnightly');
    expect(() => parseStandard('* * * * 7')).toThrow('end of range (7) above maximum (6): 7');
  });
});

describe('formatRFC3339InZone', () => {
  it('formats with the zone offset, Z in UTC', () => {
    const t = at('2026-11-22T14:33:00Z');
    expect(formatRFC3339InZone(t, undefined)).toBe('2026-11-22T14:33:00Z');
    expect(formatRFC3339InZone(t, 'Asia/Kolkata')).toBe('2026-11-22T20:03:00+05:30');
    expect(formatRFC3339InZone(t, 'America/New_York')).toBe('2026-11-22T09:33:00-05:00');
    expect(formatRFC3339InZone(at('2026-07-01T12:00:00Z'), 'America/New_York')).toBe('2026-07-01T08:00:00-04:00');
  });
});
