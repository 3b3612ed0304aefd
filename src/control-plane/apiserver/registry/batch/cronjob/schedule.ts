// The schedule syntax CronJob validation accepts (robfig/cron ParseStandard): five fields or a descriptor, with the
// same error texts. Only parsing for validation lives here; computing run times belongs to the CronJob controller.

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

const descriptors = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** strconv.Atoi's error text. */
function atoiError(s: string): string {
  return /^[+-]?[0-9]+$/.test(s) ? `strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range` : `strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`;
}

function mustParseInt(expr: string): number {
  if (!/^[+-]?[0-9]+$/.test(expr) || Math.abs(Number(expr)) > 2 ** 63) throw new Error(`failed to parse int from ${expr}: ${atoiError(expr)}`);
  const n = Number.parseInt(expr, 10);
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names?: Record<string, number>): number {
  const lower = expr.toLowerCase();
  if (names && Object.prototype.hasOwnProperty.call(names, lower)) return names[lower];
  return mustParseInt(expr);
}

function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0], r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1], r.names);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]);
    // "N/step" means "N-max/step".
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expr}`);
  }
  if (start < r.min) throw new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
}

const durationRegexp = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;

/** Returns the parse error text, or undefined when the schedule is valid. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    if (spec.length === 0) return 'empty spec string';
    let s = spec;
    if (s.startsWith('TZ=') || s.startsWith('CRON_TZ=')) {
      const space = s.indexOf(' ');
      if (space < 0) return `provided bad location ${s.slice(s.indexOf('=') + 1)}: unknown time zone ${s.slice(s.indexOf('=') + 1)}`;
      s = s.slice(space + 1).trim();
    }
    if (s.startsWith('@')) {
      if (descriptors.has(s)) return undefined;
      if (s.startsWith('@every ')) {
        const d = s.slice('@every '.length);
        return durationRegexp.test(d) ? undefined : `failed to parse duration ${s}: time: invalid duration ${JSON.stringify(d)}`;
      }
      return `unrecognized descriptor: ${s}`;
    }
    const fields = s.split(/\s+/).filter(Boolean);
    if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`;
    fields.forEach((f, i) => {
      for (const part of f.split(',')) checkRange(part, fieldBounds[i]);
    });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
