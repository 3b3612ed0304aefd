// JSON as Go's encoding/json writes an unstructured object (map[string]interface{}): keys sorted, <, > and & escaped
// as \u003c \u003e \u0026, MarshalIndent's layout. kubectl's -o json and jsonpath's map/slice results read this way.

/** json.Marshal (indent undefined) or json.MarshalIndent(v, "", indent). */
export function goJson(value: unknown, indent?: string): string {
  return encode(value, indent, '');
}

function encode(value: unknown, indent: string | undefined, prefix: string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value.toString();
  const inner = indent === undefined ? '' : prefix + indent;
  const nl = indent === undefined ? '' : '\n';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v) => inner + encode(v, indent, inner));
    return `[${nl}${items.join(`,${nl}`)}${nl}${indent === undefined ? '' : prefix}]`;
  }
  if (typeof value === 'object') {
    const keys = Object.keys(value as object)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort(compareGoStrings);
    if (keys.length === 0) return '{}';
    const sep = indent === undefined ? ':' : ': ';
    const items = keys.map((k) => `${inner}${quote(k)}${sep}${encode((value as Record<string, unknown>)[k], indent, inner)}`);
    return `{${nl}${items.join(`,${nl}`)}${nl}${indent === undefined ? '' : prefix}}`;
  }
  return 'null';
}

/** Go compares strings byte-wise (UTF-8); for the BMP outside surrogates that is code-point order. */
export function compareGoStrings(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

export function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '<':
      case '>':
      case '&':
        out += `\\u00${c.toString(16)}`;
        break;
      default:
        if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
        else if (c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16)}`;
        else out += ch;
    }
  }
  return `${out}"`;
}
