// Deterministic identifiers: container IDs, image digests, machine IDs are derived from names so the same
// cluster history produces the same IDs without drawing from the shared rng (which would make them depend on
// the order other components run in).

/** 32-bit FNV-1a of s, seeded. */
function fnv1a(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // Final avalanche (murmur3 fmix32) so nearby inputs give unrelated outputs.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * n hex digits derived from s (not cryptographic: only needs to look like a digest and be stable), prefixed by
 * `prefix`. Built with join, not +=: V8 keeps a string built by + as a tree of its parts (8 pieces and their
 * nodes for 64 digits, ~450 bytes), and a container ID lives as long as its pod; join makes one flat string.
 */
export function hexDigest(s: string, n = 64, prefix = ''): string {
  const parts: string[] = [];
  for (let i = 0, len = 0; len < n; i++, len += 8) parts.push(fnv1a(s, i * 0x9e3779b9).toString(16).padStart(8, '0'));
  if (parts.length * 8 > n) parts[parts.length - 1] = parts[parts.length - 1].slice(0, n - (parts.length - 1) * 8);
  if (prefix) parts.unshift(prefix);
  return parts.join('');
}

/** A number in [0, 1) derived from s. */
export function unitHash(s: string): number {
  return fnv1a(s, 0x5bd1e995) / 4294967296;
}
