// Handlers compare parts of an old and a new object (labels, a controller ref, tolerations) on every watch event.
// JSON.stringify of both is the exact test they need; this answers the usual "unchanged" case by walking the
// two values instead of serialising them, and falls back to the serialised comparison for anything else.

/** Exactly `JSON.stringify(a) === JSON.stringify(b)`, without serialising when a and b have the same shape. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return sameShape(a, b) || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * True only when a and b would serialise identically because they are built alike: equal primitives, or plain
 * objects/arrays with the same keys in the same order and same-shaped values. False means "not sure".
 */
function sameShape(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameShape(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    if (k !== kb[i]) return false;
    const va = (a as Record<string, unknown>)[k];
    // undefined and functions are left out of JSON: let the serialised comparison decide.
    if (va === undefined || typeof va === 'function' || !sameShape(va, (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

function isPlain(o: object): boolean {
  const proto = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}
