// []byte fields on the wire: Go's base64.StdEncoding (padded; \r and \n ignored), with the same error offsets,
// so a bad Secret value fails with `illegal base64 data at input byte N` exactly as the API server says it.

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const decodeMap = new Int16Array(256).fill(-1);
for (let i = 0; i < alphabet.length; i++) decodeMap[alphabet.charCodeAt(i)] = i;
const PAD = 0x3d; // '='
const CR = 0x0d;
const LF = 0x0a;

export class Base64Error extends Error {
  constructor(readonly offset: number) {
    super(`illegal base64 data at input byte ${offset}`);
    this.name = 'Base64Error';
  }
}

const encoder = new TextEncoder();

/** Decodes like base64.StdEncoding.Decode; throws Base64Error(offset) where Go reports CorruptInputError. */
export function decodeStdBase64(text: string): Uint8Array {
  const src = encoder.encode(text);
  const out = new Uint8Array(Math.floor((src.length / 4) * 3) + 3);
  let n = 0;
  let si = 0;
  const dbuf = [0, 0, 0, 0];
  while (si < src.length) {
    // decodeQuantum
    let dlen = 4;
    let j = 0;
    let end = false;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return out.slice(0, n);
        // j == 1, or padding required: too few characters
        throw new Base64Error(si - j);
      }
      const c = src[si];
      si++;
      const v = decodeMap[c];
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (c === LF || c === CR) {
        j--;
        continue;
      }
      if (c !== PAD) throw new Base64Error(si - 1);
      // padding: only after two or three characters of a quantum
      if (j === 0 || j === 1) throw new Base64Error(si - 1);
      if (j === 2) {
        // "==" expected; the first "=" is consumed
        while (si < src.length && (src[si] === LF || src[si] === CR)) si++;
        if (si === src.length) throw new Base64Error(src.length);
        if (src[si] !== PAD) throw new Base64Error(si - 1);
        si++;
      }
      while (si < src.length && (src[si] === LF || src[si] === CR)) si++;
      if (si < src.length) throw new Base64Error(si); // trailing garbage
      dlen = j;
      end = true;
      break;
    }
    for (let k = dlen; k < 4; k++) dbuf[k] = 0;
    const val = (dbuf[0] << 18) | (dbuf[1] << 12) | (dbuf[2] << 6) | dbuf[3];
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    for (let k = 0; k < dlen - 1; k++) out[n++] = bytes[k];
    if (end) break;
  }
  return out.slice(0, n);
}

/** base64.StdEncoding.EncodeToString. */
export function encodeStdBase64(bytes: Uint8Array): string {
  let s = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    s += alphabet[(v >> 18) & 63] + alphabet[(v >> 12) & 63] + alphabet[(v >> 6) & 63] + alphabet[v & 63];
  }
  if (i < bytes.length) {
    const v = (bytes[i] << 16) | ((i + 1 < bytes.length ? bytes[i + 1] : 0) << 8);
    s += alphabet[(v >> 18) & 63] + alphabet[(v >> 12) & 63];
    s += i + 1 < bytes.length ? alphabet[(v >> 6) & 63] : '=';
    s += '=';
  }
  return s;
}

/** Round-trips a []byte field the way the API server stores it: decoded, then re-encoded canonically. */
export function canonicalBase64(text: string): string {
  return encodeStdBase64(decodeStdBase64(text));
}
