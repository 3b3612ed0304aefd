// Flag parsing with spf13/pflag's semantics and error texts, as kubectl (cobra) parses its command lines:
//   --flag=value, --flag value, -f value, -fvalue, -f=value, bool flags (--all, --all=false, -A), shorthand
//   clusters (-it, -itc name), `--` ending the flags, flags anywhere among the arguments (interspersed), a lone
//   `-` as an argument, stringArray (each use appends) and stringSlice (comma-separated, each use appends),
//   int (strconv.ParseInt base 0) and duration (time.ParseDuration) validation, NoOptDefVal (--cascade alone).
//
// Values: bool → boolean, string → string, int → number, duration → number of milliseconds, stringArray and
// stringSlice → string[]. A duration default may be given as Go text ('20s') or milliseconds.
import type { FlagSpec, FlagValue, FlagValues } from './command';
import { formatGoDuration, goQuote, parseGoBool, parseGoDuration, parseGoInt } from './go-values';

/** cobra's help flag, which every command has. */
export const helpFlag: FlagSpec = { name: 'help', shorthand: 'h', type: 'bool', default: false, usage: 'help for this command' };

export class ParsedFlags implements FlagValues {
  private readonly values = new Map<string, FlagValue>();
  private readonly set = new Set<string>();
  /** How many positional arguments came before `--` (pflag's ArgsLenAtDash), -1 without one. */
  argsLenAtDash = -1;

  constructor(readonly specs: readonly FlagSpec[]) {
    for (const spec of specs) if (!this.values.has(spec.name)) this.values.set(spec.name, defaultValue(spec));
  }

  get<T extends FlagValue = FlagValue>(name: string): T | undefined {
    return this.values.get(name) as T | undefined;
  }

  changed(name: string): boolean {
    return this.set.has(name);
  }

  /** pflag's Value.Set: parses and stores one occurrence; an error text when the value is invalid. */
  setValue(spec: FlagSpec, raw: string): string | undefined {
    const first = !this.set.has(spec.name);
    const parsed = parseFlagValue(spec, raw);
    if (!parsed.ok) {
      const name = spec.shorthand ? `-${spec.shorthand}, --${spec.name}` : `--${spec.name}`;
      return `invalid argument ${goQuote(raw)} for ${goQuote(name)} flag: ${parsed.error}`;
    }
    if (Array.isArray(parsed.value) && !first) {
      this.values.set(spec.name, [...(this.values.get(spec.name) as string[]), ...parsed.value]);
    } else {
      this.values.set(spec.name, parsed.value);
    }
    this.set.add(spec.name);
    return undefined;
  }
}

function parseFlagValue(spec: FlagSpec, raw: string): { ok: true; value: FlagValue } | { ok: false; error: string } {
  switch (spec.type) {
    case 'bool':
      return parseGoBool(raw);
    case 'int':
      return parseGoInt(raw);
    case 'duration':
      return parseGoDuration(raw);
    case 'stringArray':
      return { ok: true, value: [raw] };
    case 'stringSlice':
      return raw === '' ? { ok: true, value: [] } : readAsCsv(raw);
    default:
      return { ok: true, value: raw };
  }
}

/** pflag's readAsCSV: one CSV record (quoted fields may hold commas). */
function readAsCsv(raw: string): { ok: true; value: string[] } | { ok: false; error: string } {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (raw[i] === '"') {
      i++;
      for (;;) {
        if (i >= raw.length) return { ok: false, error: `parse error on line 1, column ${raw.length + 1}: extraneous or missing " in quoted-field` };
        if (raw[i] === '"') {
          if (raw[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += raw[i++];
      }
      if (i < raw.length && raw[i] !== ',') return { ok: false, error: `parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field` };
    } else {
      while (i < raw.length && raw[i] !== ',') field += raw[i++];
    }
    fields.push(field);
    if (i >= raw.length) return { ok: true, value: fields };
    i++; // the comma
  }
}

function defaultValue(spec: FlagSpec): FlagValue {
  const d = spec.default;
  switch (spec.type) {
    case 'bool':
      return d === true || d === 'true';
    case 'int':
      return typeof d === 'number' ? d : d === undefined || d === '' ? 0 : Number(d);
    case 'duration': {
      if (typeof d === 'number') return d;
      if (typeof d === 'string' && d !== '') {
        const parsed = parseGoDuration(d);
        return parsed.ok ? parsed.value : 0;
      }
      return 0;
    }
    case 'stringArray':
    case 'stringSlice':
      return Array.isArray(d) ? [...d] : typeof d === 'string' && d !== '' && d !== '[]' ? d.replace(/^\[|\]$/g, '').split(',') : [];
    default:
      return d === undefined ? '' : String(d);
  }
}

/** The default as kubectl's help shows it after `=`: 'text', [a,b], 0s, false, 500. */
export function formatFlagDefault(spec: FlagSpec): string {
  const value = defaultValue(spec);
  switch (spec.type) {
    case 'string':
      return `'${value as string}'`;
    case 'duration':
      return formatGoDuration(value as number);
    case 'stringArray':
    case 'stringSlice':
      return `[${(value as string[]).join(',')}]`;
    default:
      return String(value);
  }
}

export type FlagParse = { ok: true; flags: ParsedFlags; args: string[] } | { ok: false; error: string };

/**
 * pflag's FlagSet.Parse over every flag the command accepts (its own, the global ones and help). Errors are the
 * texts pflag returns ("unknown flag: --foo"); the caller adds kubectl's "See '… --help' for usage." line.
 */
export function parseFlags(specs: readonly FlagSpec[], argv: readonly string[]): FlagParse {
  const flags = new ParsedFlags(specs);
  // A command's own flag shadows a global one of the same name (config set-context --namespace): first wins.
  const byName = new Map<string, FlagSpec>();
  const byShorthand = new Map<string, FlagSpec>();
  for (const spec of specs) {
    if (!byName.has(spec.name)) byName.set(spec.name, spec);
    if (spec.shorthand && !byShorthand.has(spec.shorthand)) byShorthand.set(spec.shorthand, spec);
  }
  const args: string[] = [];
  const queue = [...argv];
  while (queue.length > 0) {
    const s = queue.shift()!;
    if (s.length < 2 || s[0] !== '-') {
      args.push(s);
      continue;
    }
    if (s[1] === '-') {
      if (s.length === 2) {
        flags.argsLenAtDash = args.length;
        args.push(...queue);
        break;
      }
      const error = parseLongArg(s, queue, byName, flags);
      if (error) return { ok: false, error };
    } else {
      let shorthands = s.slice(1);
      while (shorthands.length > 0) {
        const step = parseSingleShortArg(shorthands, queue, byShorthand, flags);
        if ('error' in step) return { ok: false, error: step.error };
        shorthands = step.rest;
      }
    }
  }
  return { ok: true, flags, args };
}

function noOptDefault(spec: FlagSpec): string | undefined {
  return spec.type === 'bool' ? (spec.noOptDefault ?? 'true') : spec.noOptDefault;
}

function parseLongArg(s: string, queue: string[], byName: Map<string, FlagSpec>, flags: ParsedFlags): string | undefined {
  const body = s.slice(2);
  if (body.length === 0 || body[0] === '-' || body[0] === '=') return `bad flag syntax: ${s}`;
  const eq = body.indexOf('=');
  const name = eq < 0 ? body : body.slice(0, eq);
  const spec = byName.get(name);
  if (!spec) return `unknown flag: --${name}`;
  let value: string;
  const noOpt = noOptDefault(spec);
  if (eq >= 0) value = body.slice(eq + 1);
  else if (noOpt !== undefined) value = noOpt;
  else if (queue.length > 0) value = queue.shift()!;
  else return `flag needs an argument: ${s}`;
  return flags.setValue(spec, value);
}

function parseSingleShortArg(
  shorthands: string,
  queue: string[],
  byShorthand: Map<string, FlagSpec>,
  flags: ParsedFlags,
): { rest: string } | { error: string } {
  const c = shorthands[0];
  const spec = byShorthand.get(c);
  if (!spec) return { error: `unknown shorthand flag: '${c}' in -${shorthands}` };
  let rest = shorthands.slice(1);
  let value: string;
  const noOpt = noOptDefault(spec);
  if (shorthands.length > 2 && shorthands[1] === '=') {
    value = shorthands.slice(2);
    rest = '';
  } else if (noOpt !== undefined) {
    value = noOpt;
  } else if (shorthands.length > 1) {
    value = shorthands.slice(1);
    rest = '';
  } else if (queue.length > 0) {
    value = queue.shift()!;
  } else {
    return { error: `flag needs an argument: '${c}' in -${shorthands}` };
  }
  const error = flags.setValue(spec, value);
  return error ? { error } : { rest };
}
