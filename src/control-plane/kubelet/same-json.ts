// Whether two plain values have the same JSON text — JSON.stringify(a) === JSON.stringify(b) — without making
// the texts. The kubelet compares every status it computes with the one it last wrote, and every pod the watch
// brings with the one before; building two strings for each comparison was most of that work.

/** JSON.stringify(a) === JSON.stringify(b) for plain data (no toJSON, no cycles): key order counts. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return jsonScalar(a) === jsonScalar(b);
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameJson(inArray(x[i]), inArray(y[i]))) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  // Walk both key lists in order, skipping what JSON.stringify leaves out of an object.
  let j = 0;
  for (let i = 0; i < kx.length; i++) {
    const vx = x[kx[i]];
    if (omitted(vx)) continue;
    while (j < ky.length && omitted(y[ky[j]])) j++;
    if (j >= ky.length || ky[j] !== kx[i] || !sameJson(vx, y[ky[j]])) return false;
    j++;
  }
  while (j < ky.length && omitted(y[ky[j]])) j++;
  return j === ky.length;
}

/** Values an object's JSON text leaves out (an array writes them as null). */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

function inArray(v: unknown): unknown {
  return omitted(v) ? null : v;
}

/** A scalar as JSON sees it: non-finite numbers are null, -0 is 0. */
function jsonScalar(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v + 0 : null;
  if (omitted(v)) return undefined;
  return v;
}

/**
 * A value with the same JSON text as `ours` that reuses the parts of `theirs` (an object the API server
 * stores) that are JSON-equal: whole subtrees where they match, and equal strings. Nothing is copied that
 * matches, so keeping the result beside the stored object costs only the parts that differ. Both are treated
 * as immutable from then on (stored objects are frozen).
 */
export function shareWith<T>(ours: T, theirs: unknown): T {
  if (ours === theirs) return ours;
  if (typeof ours === 'string') return typeof theirs === 'string' && theirs === ours ? (theirs as T) : ours;
  if (typeof ours !== 'object' || ours === null || typeof theirs !== 'object' || theirs === null) return ours;
  if (sameJson(ours, theirs)) return theirs as T;
  if (Array.isArray(ours)) {
    if (!Array.isArray(theirs)) return ours;
    return ours.map((v, i) => shareWith(v, theirs[i])) as T;
  }
  if (Array.isArray(theirs)) return ours;
  const x = ours as Record<string, unknown>;
  const y = theirs as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(x)) out[k] = shareWith(x[k], y[k]);
  return out as T;
}
