// metav1.Time / MicroTime on the wire: time.Parse(time.RFC3339, s), with Go's error texts, and the form the
// API server writes back (UTC; seconds for Time, microseconds for MicroTime).

const RFC3339 = '2006-01-02T15:04:05Z07:00';
const RFC3339Micro = '2006-01-02T15:04:05.000000Z07:00';

export class TimeParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeParseError';
  }
}

function quote(s: string): string {
  return JSON.stringify(s);
}

function cannotParse(layout: string, value: string, rest: string, elem: string): TimeParseError {
  return new TimeParseError(`parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(elem)}`);
}

function outOfRange(value: string, what: string): TimeParseError {
  return new TimeParseError(`parsing time ${quote(value)}: ${what} out of range`);
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

/**
 * Parses as Go's time.Parse(RFC3339) does (optional fractional seconds), or with micro=true as
 * time.Parse(RFC3339Micro) (exactly six fractional digits). Returns epoch ms plus the remaining µs.
 */
export function parseRFC3339(value: string, micro = false): { ms: number; micros: number } {
  const layout = micro ? RFC3339Micro : RFC3339;
  let rest = value;
  const num = (digits: number, elem: string): number => {
    const m = new RegExp(`^[0-9]{${digits}}`).exec(rest);
    if (!m) throw cannotParse(layout, value, rest, elem);
    rest = rest.slice(digits);
    return Number(m[0]);
  };
  const lit = (s: string): void => {
    if (!rest.startsWith(s)) throw cannotParse(layout, value, rest, s);
    rest = rest.slice(s.length);
  };
  const year = num(4, '2006');
  lit('-');
  const month = num(2, '01');
  if (month < 1 || month > 12) throw outOfRange(value, 'month');
  lit('-');
  const day = num(2, '02');
  lit('T');
  const hour = num(2, '15');
  if (hour >= 24) throw outOfRange(value, 'hour');
  lit(':');
  const minute = num(2, '04');
  if (minute >= 60) throw outOfRange(value, 'minute');
  lit(':');
  const second = num(2, '05');
  if (second >= 60) throw outOfRange(value, 'second');
  let nanos = 0;
  const frac = micro ? /^\.[0-9]{6}/.exec(rest) : /^[.,][0-9]+/.exec(rest);
  if (micro && !frac) throw cannotParse(layout, value, rest, '.000000');
  if (frac) {
    const digits = frac[0].slice(1, 10).padEnd(9, '0');
    nanos = Number(digits);
    rest = rest.slice(frac[0].length);
  }
  let offsetMin = 0;
  if (rest.startsWith('Z')) rest = rest.slice(1);
  else {
    const z = /^([+-])([0-9]{2}):([0-9]{2})/.exec(rest);
    if (!z) throw cannotParse(layout, value, rest, 'Z07:00');
    offsetMin = (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3]));
    rest = rest.slice(z[0].length);
  }
  if (rest.length > 0) throw new TimeParseError(`parsing time ${quote(value)}: extra text: ${quote(rest)}`);
  if (day < 1 || day > daysIn(month, year)) throw outOfRange(value, 'day');
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMin * 60_000 + Math.floor(nanos / 1e6);
  return { ms, micros: Math.floor((nanos % 1e6) / 1e3) };
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

function utcParts(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
}

/** metav1.Time as the API server writes it: UTC, whole seconds ("2024-01-01T08:00:00Z"). */
export function canonicalTime(value: string): string {
  const { ms } = parseRFC3339(value);
  return `${utcParts(Math.floor(ms / 1000) * 1000)}Z`;
}

/** metav1.MicroTime: UTC with six fractional digits ("2024-01-01T08:00:00.123456Z"). */
export function canonicalMicroTime(value: string): string {
  const { ms, micros } = parseRFC3339(value, true);
  const whole = Math.floor(ms / 1000) * 1000;
  return `${utcParts(whole)}.${pad((ms - whole) * 1000 + micros, 6)}Z`;
}
