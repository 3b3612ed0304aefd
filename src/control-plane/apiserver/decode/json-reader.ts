// A JSON reader for request bodies that keeps what JSON.parse throws away: repeated keys (for strict decoding's
// `duplicate field`), integers beyond 2^53 (as BigInt, never rounded) and Go's syntax error texts.
// Keys are own data properties, so "__proto__" stays data.
import { setOwn } from './state';

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export interface JsonReadResult {
  value: unknown;
  /** For each object with a repeated key, by strict path ("" = root): its keys in order, repeats included. */
  keyOrder: Map<string, string[]>;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Go's quoteChar: 'x', '\'', '"', or a Go-quoted escape such as '\n'. */
function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const escapes: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\' };
  if (escapes[c]) return `'${escapes[c]}'`;
  const code = c.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  return `'${c}'`;
}

export function readJson(text: string, maxDepth = 10000): JsonReadResult {
  let i = 0;
  const n = text.length;
  const keyOrder = new Map<string, string[]>();
  let depth = 0;

  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const eof = (): never => {
    throw new JsonSyntaxError('unexpected end of JSON input', n);
  };
  const bad = (context: string): never => {
    throw new JsonSyntaxError(`invalid character ${quoteChar(text[i])} ${context}`, i);
  };

  const readString = (): string => {
    // text[i] === '"'
    i++;
    let out = '';
    let start = i;
    for (;;) {
      if (i >= n) eof();
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 0x20) bad('in string literal');
      if (c === 0x5c) {
        out += text.slice(start, i);
        i++;
        if (i >= n) eof();
        const e = text[i];
        switch (e) {
          case '"':
          case '\\':
          case '/':
            out += e;
            break;
          case 'b':
            out += '\b';
            break;
          case 'f':
            out += '\f';
            break;
          case 'n':
            out += '\n';
            break;
          case 'r':
            out += '\r';
            break;
          case 't':
            out += '\t';
            break;
          case 'u': {
            let code = 0;
            for (let k = 1; k <= 4; k++) {
              if (i + k >= n) {
                i += k;
                eof();
              }
              const h = text[i + k];
              if (!/[0-9a-fA-F]/.test(h)) {
                i += k;
                bad('in \\u hexadecimal character escape');
              }
              code = code * 16 + parseInt(h, 16);
            }
            out += String.fromCharCode(code);
            i += 4;
            break;
          }
          default:
            bad('in string escape code');
        }
        i++;
        start = i;
        continue;
      }
      i++;
    }
  };

  const readNumber = (): number | bigint => {
    const start = i;
    if (text[i] === '-') {
      i++;
      if (i >= n) eof();
      if (!(text[i] >= '0' && text[i] <= '9')) bad('in numeric literal');
    }
    if (text[i] === '0') i++;
    else while (i < n && text[i] >= '0' && text[i] <= '9') i++;
    let integer = true;
    if (text[i] === '.') {
      integer = false;
      i++;
      if (i >= n) eof();
      if (!(text[i] >= '0' && text[i] <= '9')) bad('after decimal point in numeric literal');
      while (i < n && text[i] >= '0' && text[i] <= '9') i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      integer = false;
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (i >= n) eof();
      if (!(text[i] >= '0' && text[i] <= '9')) bad('in exponent of numeric literal');
      while (i < n && text[i] >= '0' && text[i] <= '9') i++;
    }
    const literal = text.slice(start, i);
    if (integer && literal.length > 15) {
      const big = BigInt(literal);
      if (big > MAX_SAFE || big < -MAX_SAFE) return big;
    }
    return Number(literal);
  };

  const readLiteral = (word: string, value: unknown): unknown => {
    for (let k = 0; k < word.length; k++) {
      if (i + k >= n) {
        i += k;
        eof();
      }
      if (text[i + k] !== word[k]) {
        i += k;
        bad(`in literal ${word} (expecting ${quoteChar(word[k])})`);
      }
    }
    i += word.length;
    return value;
  };

  const readValue = (path: string): unknown => {
    ws();
    if (i >= n) eof();
    const c = text[i];
    if (c === '{') return readObject(path);
    if (c === '[') return readArray(path);
    if (c === '"') return readString();
    if (c === '-' || (c >= '0' && c <= '9')) return readNumber();
    if (c === 't') return readLiteral('true', true);
    if (c === 'f') return readLiteral('false', false);
    if (c === 'n') return readLiteral('null', null);
    return bad('looking for beginning of value');
  };

  const enter = (): void => {
    if (++depth > maxDepth) throw new JsonSyntaxError(`exceeded max depth of ${maxDepth}`, i);
  };

  const readObject = (path: string): Record<string, unknown> => {
    enter();
    i++;
    const obj: Record<string, unknown> = {};
    const order: string[] = [];
    let repeated = false;
    ws();
    if (i >= n) eof();
    if (text[i] === '}') {
      i++;
      depth--;
      return obj;
    }
    for (;;) {
      ws();
      if (i >= n) eof();
      if (text[i] !== '"') bad('looking for beginning of object key string');
      const key = readString();
      ws();
      if (i >= n) eof();
      if (text[i] !== ':') bad('after object key');
      i++;
      const value = readValue(path ? `${path}.${key}` : key);
      if (Object.hasOwn(obj, key)) repeated = true;
      order.push(key);
      setOwn(obj, key, value);
      ws();
      if (i >= n) eof();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        break;
      }
      bad('after object key:value pair');
    }
    if (repeated) keyOrder.set(path, order);
    depth--;
    return obj;
  };

  const readArray = (path: string): unknown[] => {
    enter();
    i++;
    const arr: unknown[] = [];
    ws();
    if (i >= n) eof();
    if (text[i] === ']') {
      i++;
      depth--;
      return arr;
    }
    for (;;) {
      arr.push(readValue(`${path}[${arr.length}]`));
      ws();
      if (i >= n) eof();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        break;
      }
      bad('after array element');
    }
    depth--;
    return arr;
  };

  const value = readValue('');
  ws();
  if (i < n) bad('after top-level value');
  return { value, keyOrder };
}
