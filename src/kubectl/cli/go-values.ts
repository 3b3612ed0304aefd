// Go's parsers for flag values, with their exact error texts, since pflag prints them verbatim:
// strconv.ParseInt(s, 0, 64), strconv.ParseBool, time.ParseDuration, and time.Duration.String for help defaults.

/** Go's %q for a string: a double-quoted literal with Go escapes. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + '"';
}

export type GoParse<T> = { ok: true; value: T } | { ok: false; error: string };

const maxInt64 = (1n << 63n) - 1n;
const minInt64 = -(1n << 63n);

/** strconv.ParseInt(s, 0, 64): optional sign, 0x/0o/0b/0 prefixes, underscores only after a base prefix. */
export function parseGoInt(s: string): GoParse<number> {
  const syntax = { ok: false as const, error: `strconv.ParseInt: parsing ${goQuote(s)}: invalid syntax` };
  let body = s;
  let negative = false;
  if (body.startsWith('+') || body.startsWith('-')) {
    negative = body[0] === '-';
    body = body.slice(1);
  }
  if (body === '') return syntax;
  let base = 10;
  let digits = body;
  let prefixed = false;
  if (/^0[xX]/.test(body)) [base, digits, prefixed] = [16, body.slice(2), true];
  else if (/^0[oO]/.test(body)) [base, digits, prefixed] = [8, body.slice(2), true];
  else if (/^0[bB]/.test(body)) [base, digits, prefixed] = [2, body.slice(2), true];
  else if (body.length > 1 && body[0] === '0') [base, digits, prefixed] = [8, body.slice(1), true];
  if (digits.includes('_')) {
    // underscoreOK: only between digits, or right after a base prefix.
    if (!/^_?[^_]+(_[^_]+)*$/.test(digits) || (!prefixed && digits.startsWith('_'))) return syntax;
    digits = digits.replace(/_/g, '');
  }
  if (digits === '') return syntax;
  const valid = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ }[base as 2 | 8 | 10 | 16];
  if (!valid.test(digits)) return syntax;
  let value = 0n;
  for (const d of digits) value = value * BigInt(base) + BigInt(parseInt(d, 16));
  if (negative) value = -value;
  if (value > maxInt64 || value < minInt64) return { ok: false, error: `strconv.ParseInt: parsing ${goQuote(s)}: value out of range` };
  return { ok: true, value: Number(value) };
}

/** strconv.ParseBool. */
export function parseGoBool(s: string): GoParse<boolean> {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return { ok: true, value: true };
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return { ok: true, value: false };
  return { ok: false, error: `strconv.ParseBool: parsing ${goQuote(s)}: invalid syntax` };
}

const unitNanos: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** time.ParseDuration, in milliseconds (fractions of a millisecond kept). */
export function parseGoDuration(s: string): GoParse<number> {
  const invalid = { ok: false as const, error: `time: invalid duration ${goQuote(s)}` };
  let rest = s;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return { ok: true, value: 0 };
  if (rest === '') return invalid;
  let nanos = 0;
  while (rest !== '') {
    const number = /^([0-9]*)(\.([0-9]*))?/.exec(rest)!;
    const whole = number[1];
    const frac = number[3] ?? '';
    if (whole === '' && frac === '') return invalid;
    rest = rest.slice(number[0].length);
    const unit = /^[^0-9.]*/.exec(rest)![0];
    if (unit === '') return { ok: false, error: `time: missing unit in duration ${goQuote(s)}` };
    const scale = unitNanos[unit];
    if (scale === undefined) return { ok: false, error: `time: unknown unit ${goQuote(unit)} in duration ${goQuote(s)}` };
    rest = rest.slice(unit.length);
    nanos += Number(`${whole || '0'}.${frac || '0'}`) * scale;
  }
  if (nanos > 9223372036854775807) return invalid;
  const ms = nanos / 1e6;
  return { ok: true, value: negative ? -ms : ms };
}

/** time.Duration.String for a whole number of milliseconds (or fractions): "0s", "500ms", "20s", "1m0s", "1h30m0s". */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1000) {
    const nanos = Math.round(abs * 1e6);
    if (nanos < 1000) return `${sign}${nanos}ns`;
    if (nanos < 1e6) return `${sign}${trimFraction(nanos / 1e3)}µs`;
    return `${sign}${trimFraction(nanos / 1e6)}ms`;
  }
  const totalSeconds = abs / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds - hours * 3600) / 60);
  const seconds = totalSeconds - hours * 3600 - minutes * 60;
  const secondsText = `${trimFraction(Math.round(seconds * 1e9) / 1e9)}s`;
  if (hours > 0) return `${sign}${hours}h${minutes}m${secondsText}`;
  if (minutes > 0) return `${sign}${minutes}m${secondsText}`;
  return `${sign}${secondsText}`;
}

function trimFraction(n: number): string {
  return String(Number(n.toFixed(9)));
}
