// The CronJob controller's schedules, as robfig/cron v3's ParseStandard reads them: five fields (minute hour
// day-of-month month day-of-week), the descriptors @yearly/@annually, @monthly, @weekly, @daily/@midnight,
// @hourly, "@every <duration>", and an optional "TZ=<zone> " / "CRON_TZ=<zone> " prefix. Parse errors carry
// robfig's texts (the API server's validation uses the same parser). Next run times are computed by cron-parser
// on the fields as robfig understood them:
//
//   - each field is handed over as the explicit list of its values, so ranges, steps and names mean exactly
//     what they mean to robfig ("5/15" = 5,20,35,50; "MON-FRI" = 1-5);
//   - day-of-month and day-of-week are ORed when both are restricted and ANDed when either is a star — robfig
//     treats "*" or "?" (or "*/1") as a star, and "*/2" as a restriction; such a field is passed as "*".
//
//   parseStandard('*/15 9-17 * * MON-FRI').next(Date.parse('2026-01-02T17:50:00Z')) → 2026-01-05T09:00:00Z
import { CronExpressionParser } from 'cron-parser';
import { cronScheduleError } from '../../apiserver/registry/batch/cronjob/schedule';

export interface CronSchedule {
  /**
   * The first activation strictly after t (ms since the epoch), or undefined when there is none within five
   * years (robfig returns the zero time: "0 0 31 2 *" never happens).
   */
  next(t: number): number | undefined;
}

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const months: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const days: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

const fieldBounds: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: months },
  { min: 0, max: 6, names: days },
];

/** robfig's descriptors as the five fields they stand for. */
const descriptors: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Whether an IANA zone name is known (Go's time.LoadLocation succeeds). "" and "UTC" are UTC. */
export function isValidTimeZone(tz: string): boolean {
  if (tz === '' || tz === 'UTC') return true;
  if (tz.toLowerCase() === 'local') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function parseValue(expr: string, names?: Record<string, number>): number {
  const lower = expr.toLowerCase();
  if (names && Object.prototype.hasOwnProperty.call(names, lower)) return names[lower];
  return Number.parseInt(expr, 10);
}

/** getRange: the values one comma-separated part selects, and whether it is a star for the day matching rule. */
function getRange(expr: string, b: Bounds): { values: number[]; star: boolean } {
  const [range, stepStr] = expr.split('/');
  const lowHigh = range.split('-');
  let start: number;
  let end: number;
  let star = false;
  if (lowHigh[0] === '*' || lowHigh[0] === '?') {
    start = b.min;
    end = b.max;
    star = true;
  } else {
    start = parseValue(lowHigh[0], b.names);
    end = lowHigh.length === 2 ? parseValue(lowHigh[1], b.names) : start;
  }
  let step = 1;
  if (stepStr !== undefined) {
    step = Number.parseInt(stepStr, 10);
    // "N/step" means "N-max/step".
    if (lowHigh.length === 1 && !star) end = b.max;
    if (step > 1) star = false;
  }
  const values: number[] = [];
  for (let v = start; v <= end; v += step) values.push(v);
  return { values, star };
}

function getField(field: string, b: Bounds): { values: number[]; star: boolean } {
  const set = new Set<number>();
  let star = false;
  for (const part of field.split(',')) {
    const r = getRange(part, b);
    for (const v of r.values) set.add(v);
    star ||= r.star;
  }
  return { values: [...set].sort((x, y) => x - y), star };
}

/** A Go duration ("1h30m", "90s", "1.5h") in ms. */
function parseGoDurationMs(d: string): number {
  const unit: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const m of d.matchAll(/([0-9]+(?:\.[0-9]+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number.parseFloat(m[1]) * unit[m[2]];
  return total;
}

/** ConstantDelaySchedule ("@every 90s"): every delay (whole seconds, at least 1 s) from t, truncated to the second. */
function constantDelay(delayMs: number): CronSchedule {
  const delay = Math.max(1000, delayMs - (delayMs % 1000));
  return { next: (t) => Math.floor(t / 1000) * 1000 + delay };
}

/**
 * ParseStandard: the schedule, or throws robfig's error ("expected exactly 5 fields, found 4: [* * * *]",
 * "end of range (60) above maximum (59): 60", "unrecognized descriptor: @fortnightly", …).
 */
export function parseStandard(spec: string): CronSchedule {
  const err = cronScheduleError(spec);
  if (err !== undefined) throw new Error(err);
  let tz = 'UTC';
  let s = spec;
  if (s.startsWith('TZ=') || s.startsWith('CRON_TZ=')) {
    const space = s.indexOf(' ');
    tz = s.slice(s.indexOf('=') + 1, space);
    if (!isValidTimeZone(tz)) throw new Error(`provided bad location ${tz}: unknown time zone ${tz}`);
    s = s.slice(space + 1).trim();
    if (tz === '') tz = 'UTC';
  }
  if (s.startsWith('@every ')) return constantDelay(parseGoDurationMs(s.slice('@every '.length)));
  const fields = (descriptors[s] ?? s).split(/\s+/).filter(Boolean);
  const parsed = fields.map((f, i) => getField(f, fieldBounds[i]));
  const expr = parsed.map((p, i) => ((i === 2 || i === 4) && p.star ? '*' : p.values.join(','))).join(' ');
  return {
    next(t: number): number | undefined {
      try {
        const next = CronExpressionParser.parse(expr, { currentDate: new Date(t), tz }).next().getTime();
        // robfig gives up five years ahead.
        return next - t > 5 * 366 * 86_400_000 ? undefined : next;
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * The instant as RFC 3339 in a zone ("2026-11-22T15:04:00+01:00"; "Z" in UTC), as Go's
 * scheduledTime.In(location).Format(time.RFC3339).
 */
export function formatRFC3339InZone(ms: number, tz: string | undefined): string {
  const zone = tz && tz !== 'UTC' ? tz : 'UTC';
  const base = new Date(Math.floor(ms / 1000) * 1000);
  if (zone === 'UTC') return base.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(base);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  const local = Date.UTC(Number(get('year')), Number(get('month')) - 1, Number(get('day')), Number(get('hour')), Number(get('minute')), Number(get('second')));
  const offsetMin = Math.round((local - base.getTime()) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const off = offsetMin === 0 ? 'Z' : `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}${off}`;
}
