// Seeded randomness: same seed, same inputs, same history. mulberry32 is small, fast and good enough for a
// simulation (not for cryptography).

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [0, n). */
  int(n: number): number;
  /** A string of length n drawn from the alphabet. */
  string(n: number, alphabet: string): string;
  /** RFC 4122 version-4 shaped UUID from the seeded stream. */
  uuid(): string;
  /** The state to persist so a reloaded cluster continues the same stream. */
  state(): number;
}

export function createRng(seed: number): Rng {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  // Strings are built from one array of char codes: concatenating a character at a time leaves a V8 rope of
  // ~36 pieces per uid, held for the life of every object (1.9 KiB per pod in the heap benchmark).
  const HEX = '0123456789abcdef';
  const DASH = 45;
  const uuidCodes = new Array<number>(36).fill(0);
  /** n random hex digits' codes written into codes from at on; the index after them. */
  const fillHex = (codes: number[], at: number, n: number): number => {
    for (let i = 0; i < n; i++) codes[at + i] = HEX.charCodeAt(int(16));
    return at + n;
  };
  return {
    next,
    int,
    string(n, alphabet) {
      const codes: number[] = [];
      for (let i = 0; i < n; i++) codes.push(alphabet.charCodeAt(int(alphabet.length)));
      return String.fromCharCode(...codes);
    },
    uuid() {
      const variant = HEX.charCodeAt(8 + int(4));
      // One array reused for every uid (its 36 codes are overwritten in full): a uid per create was ~0.8 KiB of garbage.
      const codes = uuidCodes;
      let at = fillHex(codes, 0, 8);
      codes[at++] = DASH;
      at = fillHex(codes, at, 4);
      codes[at++] = DASH;
      codes[at++] = HEX.charCodeAt(4);
      at = fillHex(codes, at, 3);
      codes[at++] = DASH;
      codes[at++] = variant;
      at = fillHex(codes, at, 3);
      codes[at++] = DASH;
      fillHex(codes, at, 12);
      return String.fromCharCode.apply(null, codes);
    },
    state: () => s,
  };
}
