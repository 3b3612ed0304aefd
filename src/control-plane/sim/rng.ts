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
  const hex = (n: number): string => {
    let out = '';
    for (let i = 0; i < n; i++) out += int(16).toString(16);
    return out;
  };
  return {
    next,
    int,
    string(n, alphabet) {
      let out = '';
      for (let i = 0; i < n; i++) out += alphabet[int(alphabet.length)];
      return out;
    },
    uuid() {
      const variant = (8 + int(4)).toString(16);
      return `${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`;
    },
    state: () => s,
  };
}
