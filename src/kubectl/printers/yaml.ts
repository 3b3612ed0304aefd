// kubectl's YAML output: sigs.k8s.io/yaml turns the object's JSON into go-yaml v2 values and marshals them, so
// this is go-yaml v2's block emitter for JSON values (gopkg.in/yaml.v2 v2.4.0 encode.go, emitterc.go, sorter.go):
//
//   - keys in go-yaml's order: rune by rune, non-letters before letters, digit runs compared as numbers;
//   - sequences at their key's indentation, empty collections as {} and [];
//   - a string is plain unless go-yaml would read it back as another type (yes, 0644, 1e3, ~, a timestamp: then
//     "double-quoted") or it cannot be plain (': ', a leading '-', '#'…: then 'single-quoted', or
//     "double-quoted" with escapes when it holds special characters); multi-line strings are | literal blocks;
//   - plain and quoted scalars fold at the first space past column 80, continuing two spaces deeper.
//
//   kubectlYaml({ metadata: { creationTimestamp: '2026-01-01T00:00:00Z' } })
//   // "metadata:\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\n"

const bestWidth = 80;
const bestIndent = 2;

// ------------------------------------------------------------------ resolution (resolve.go)

const resolveMap = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '', '~', 'null', 'Null', 'NULL', '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF', '<<']);
const yamlStyleFloat = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const base60Float = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** parseTimestamp's layouts: 2006-1-2T15:4:5.999999999Z07:00 (t too), "2006-1-2 15:4:5.999999999", 2006-1-2. */
function isTimestamp(s: string): boolean {
  if (!/^\d{4}-/.test(s)) return false;
  return (
    /^\d{4}-\d{1,2}-\d{1,2}$/.test(s) ||
    /^\d{4}-\d{1,2}-\d{1,2}[Tt]\d{1,2}:\d{1,2}:\d{1,2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(s) ||
    /^\d{4}-\d{1,2}-\d{1,2} \d{1,2}:\d{1,2}:\d{1,2}(\.\d{1,9})?$/.test(s)
  );
}

/** strconv.ParseInt/ParseUint with base 0 (0x, 0o, 0b prefixes; a leading 0 is octal). */
function isGoInt(s: string): boolean {
  return /^[-+]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)$/.test(s);
}

/** Whether go-yaml reads the plain scalar back as a string (resolve("", s) == !!str and not a base-60 float). */
function resolvesToString(s: string): boolean {
  if (resolveMap.has(s)) return false;
  const c = s[0];
  // Not in the map: maybe a float (".5", ".5e3").
  if (c === '.') return !/^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s);
  if (c === '+' || c === '-' || (c >= '0' && c <= '9')) {
    if (isTimestamp(s)) return false;
    const plain = s.replaceAll('_', '');
    if (isGoInt(plain)) return false;
    if (yamlStyleFloat.test(plain)) return false;
    if (/^-?0b[01]+$/.test(plain)) return false;
  }
  return !base60Float.test(s);
}

// ------------------------------------------------------------------ scalar analysis (emitterc.go)

interface ScalarAnalysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

const isBreak = (c: string | undefined): boolean => c === '\r' || c === '\n' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';
const isBlankz = (c: string | undefined): boolean => c === undefined || c === '\0' || isBlank(c) || isBreak(c);

/** is_printable: \n, printable ASCII, U+00A0–U+D7FF, U+E000–U+FFFD but the BOM (nothing beyond the BMP). */
function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0)!;
  return cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
}

function analyzeScalar(value: string): ScalarAnalysis {
  if (value.length === 0) return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  const chars = [...value];
  let blockIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  if (value.startsWith('---') || value.startsWith('...')) blockIndicators = true;
  let precededByWhitespace = true;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const followedByWhitespace = i + 1 >= chars.length || isBlank(chars[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) blockIndicators = true;
      else if ((c === '?' || c === ':') && followedByWhitespace) blockIndicators = true;
      else if (c === '-' && followedByWhitespace) blockIndicators = true;
    } else if (c === ':' && followedByWhitespace) {
      blockIndicators = true;
    } else if (c === '#' && precededByWhitespace) {
      blockIndicators = true;
    }
    if (!isPrintable(c)) specialCharacters = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === chars.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === chars.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankz(c);
  }
  const a: ScalarAnalysis = { multiline: lineBreaks, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.blockPlainAllowed = false;
  if (trailingSpace) a.blockAllowed = false;
  if (breakSpace) {
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    a.blockPlainAllowed = false;
    a.singleQuotedAllowed = false;
    a.blockAllowed = false;
  }
  if (lineBreaks) a.blockPlainAllowed = false;
  if (blockIndicators) a.blockPlainAllowed = false;
  return a;
}

type Style = 'plain' | 'single' | 'double' | 'literal';

/** encoder.stringv + yaml_emitter_select_scalar_style. */
function selectStyle(s: string, simpleKey: boolean): Style {
  const a = analyzeScalar(s);
  let style: Style = s.includes('\n') ? 'literal' : resolvesToString(s) ? 'plain' : 'double';
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain') {
    if (!a.blockPlainAllowed) style = 'single';
    if (s.length === 0 && simpleKey) style = 'single';
  }
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
  return style;
}

// ------------------------------------------------------------------ writer

class Writer {
  out = '';
  column = 0;
  /** The last thing written was whitespace (go-yaml's emitter.whitespace). */
  whitespace = true;
  indention = true;

  put(s: string): void {
    this.out += s;
    this.column += [...s].length;
  }

  newline(): void {
    this.out += '\n';
    this.column = 0;
  }

  /** yaml_emitter_write_indent. */
  writeIndent(indent: number): void {
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.newline();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  indicator(s: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(s);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }
}

function writePlain(w: Writer, value: string, indent: number, allowBreaks: boolean): void {
  if (!w.whitespace) w.put(' ');
  const chars = [...value];
  let spaces = false;
  let breaks = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === ' ') {
      if (allowBreaks && !spaces && w.column > bestWidth && chars[i + 1] !== ' ') w.writeIndent(indent);
      else w.put(c);
      spaces = true;
    } else if (isBreak(c)) {
      if (!breaks && c === '\n') w.newline();
      w.newline();
      w.indention = true;
      breaks = true;
    } else {
      if (breaks) w.writeIndent(indent);
      w.put(c);
      w.indention = false;
      spaces = false;
      breaks = false;
    }
  }
  w.whitespace = false;
  w.indention = false;
}

function writeSingleQuoted(w: Writer, value: string, indent: number, allowBreaks: boolean): void {
  w.indicator("'", true, false, false);
  const chars = [...value];
  let spaces = false;
  let breaks = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === ' ') {
      if (allowBreaks && !spaces && w.column > bestWidth && i > 0 && i < chars.length - 1 && chars[i + 1] !== ' ') w.writeIndent(indent);
      else w.put(c);
      spaces = true;
    } else if (isBreak(c)) {
      if (!breaks && c === '\n') w.newline();
      w.newline();
      w.indention = true;
      breaks = true;
    } else {
      if (breaks) w.writeIndent(indent);
      w.put(c === "'" ? "''" : c);
      w.indention = false;
      spaces = false;
      breaks = false;
    }
  }
  w.indicator("'", false, false, false);
  w.whitespace = false;
  w.indention = false;
}

const shortEscapes: Record<number, string> = {
  0x00: '0',
  0x07: 'a',
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0b: 'v',
  0x0c: 'f',
  0x0d: 'r',
  0x1b: 'e',
  0x22: '"',
  0x5c: '\\',
  0x85: 'N',
  0xa0: '_',
  0x2028: 'L',
  0x2029: 'P',
};

function writeDoubleQuoted(w: Writer, value: string, indent: number, allowBreaks: boolean): void {
  w.indicator('"', true, false, false);
  const chars = [...value];
  let spaces = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const cp = c.codePointAt(0)!;
    if (!isPrintable(c) || cp === 0xfeff || isBreak(c) || c === '"' || c === '\\') {
      const short = shortEscapes[cp];
      if (short !== undefined) w.put(`\\${short}`);
      else if (cp <= 0xff) w.put(`\\x${cp.toString(16).toUpperCase().padStart(2, '0')}`);
      else if (cp <= 0xffff) w.put(`\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`);
      else w.put(`\\U${cp.toString(16).toUpperCase().padStart(8, '0')}`);
      spaces = false;
    } else if (c === ' ') {
      if (allowBreaks && !spaces && w.column > bestWidth && i > 0 && i < chars.length - 1) {
        w.writeIndent(indent);
        if (chars[i + 1] === ' ') w.put('\\');
      } else {
        w.put(c);
      }
      spaces = true;
    } else {
      w.put(c);
      spaces = false;
    }
  }
  w.indicator('"', false, false, false);
  w.whitespace = false;
  w.indention = false;
}

function writeLiteral(w: Writer, value: string, indent: number): void {
  w.indicator('|', true, false, false);
  // Block scalar hints: an indentation indicator when it starts with a space or break; chomping from its end.
  if (value[0] === ' ' || isBreak(value[0])) w.indicator(String(bestIndent), false, false, false);
  let chomp = '';
  if (!isBreak(value[value.length - 1])) chomp = '-';
  else if (value.length === 1 || isBreak(value[value.length - 2])) chomp = '+';
  if (chomp) w.indicator(chomp, false, false, false);
  w.newline();
  w.indention = true;
  w.whitespace = true;
  let breaks = true;
  for (const c of value) {
    if (isBreak(c)) {
      w.newline();
      w.indention = true;
      breaks = true;
    } else {
      if (breaks) w.writeIndent(indent);
      w.put(c);
      w.indention = false;
      breaks = false;
    }
  }
}

/** strconv.FormatFloat(f, 'g', -1, 64), as go-yaml writes a float. */
export function goFloatG(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, expPart] = f.toExponential().split('e');
  const exp = Number(expPart);
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exp < -4 || exp >= digits.length) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${f < 0 ? '-' : ''}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  return String(f);
}

function scalarText(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? v.toFixed(0) : goFloatG(v);
  return undefined;
}

function writeScalar(w: Writer, v: unknown, indent: number, simpleKey: boolean): void {
  const text = scalarText(v);
  if (text !== undefined) {
    writePlain(w, text, indent, !simpleKey);
    return;
  }
  const s = String(v);
  switch (selectStyle(s, simpleKey)) {
    case 'plain':
      return writePlain(w, s, indent, !simpleKey);
    case 'single':
      return writeSingleQuoted(w, s, indent, !simpleKey);
    case 'double':
      return writeDoubleQuoted(w, s, indent, !simpleKey);
    case 'literal':
      return writeLiteral(w, s, indent);
  }
}

// ------------------------------------------------------------------ key order (sorter.go)

const isLetter = (c: string): boolean => /\p{L}/u.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && /\p{Nd}/u.test(c);

/** keyList.Less for string keys. */
export function yamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + (ar[ai].codePointAt(0)! - 48);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + (br[bi].codePointAt(0)! - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

function sortedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort((x, y) => (yamlKeyLess(x, y) ? -1 : yamlKeyLess(y, x) ? 1 : 0));
}

// ------------------------------------------------------------------ collections

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function isEmptyCollection(v: unknown): string | undefined {
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (isMap(v) && sortedKeys(v).length === 0) return '{}';
  return undefined;
}

/** A node at `indent` (the indentation its block content would use), the cursor after "key:" or "- ". */
function writeNode(w: Writer, v: unknown, indent: number, inSequence: boolean): void {
  const empty = isEmptyCollection(v);
  if (empty) {
    w.indicator(empty, true, false, false);
    w.whitespace = false;
    return;
  }
  if (Array.isArray(v)) {
    // In a mapping a sequence is indentless: its dashes line up with the key.
    writeSequence(w, v, inSequence ? indent + bestIndent : indent);
    return;
  }
  if (isMap(v)) {
    writeMapping(w, v, indent + bestIndent);
    return;
  }
  writeScalar(w, v, indent + bestIndent, false);
}

function writeMapping(w: Writer, obj: Record<string, unknown>, indent: number): void {
  for (const key of sortedKeys(obj)) {
    w.writeIndent(indent);
    writeScalar(w, key, indent, true);
    w.indicator(':', false, false, false);
    writeNode(w, obj[key], indent, false);
  }
}

function writeSequence(w: Writer, items: unknown[], indent: number): void {
  for (const item of items) {
    w.writeIndent(indent);
    w.indicator('-', true, false, true);
    writeNode(w, item, indent, true);
  }
}

/** The YAML kubectl prints for an object (a document ending with a newline). */
export function kubectlYaml(value: unknown): string {
  const w = new Writer();
  const empty = isEmptyCollection(value);
  if (empty) return `${empty}\n`;
  if (isMap(value)) writeMapping(w, value, 0);
  else if (Array.isArray(value)) writeSequence(w, value, 0);
  else writeScalar(w, value, 0, false);
  return w.out.endsWith('\n') ? w.out : `${w.out}\n`;
}
