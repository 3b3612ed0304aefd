// Whether two values have the same JSON text — JSON.stringify(a) === JSON.stringify(b) — without making the texts.
// Components compare parts of an old and a new object on every watch event (labels, owner references,
// tolerations, a pod's spec, the status the kubelet last wrote); building two strings for each comparison was
// most of that work.

/** Exactly JSON.stringify(a) === JSON.stringify(b) (no cycles): key order counts. */
export function sameJson(a: unknown, b: unknown): boolean {
  return sameAt(a, b, 0);
}

/**
 * One reusable key list per depth: a comparison walks a's keys in order against b's, and allocating two key
 * arrays per object compared was most of what comparing cost the collector (it runs on every stored write).
 */
const keysAtDepth: string[][] = [];

function sameAt(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  // A Date or anything else with a prototype of its own may have toJSON: let JSON decide.
  if (special(a) || special(b)) return JSON.stringify(a) === JSON.stringify(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return jsonScalar(a) === jsonScalar(b);
  const arrayA = Array.isArray(a);
  if (arrayA !== Array.isArray(b)) return false;
  if (arrayA) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameAt(inArray(x[i]), inArray(y[i]), depth + 1)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // x's keys that JSON writes, in order; then y's, walked against them, each value compared as its key is
  // reached: most unequal values differ early (an interned condition of another type differs at its first
  // member), so the rest of the walk is skipped. Deeper comparisons use deeper lists, so this one stays as it is.
  // (Its length is never reset: setting length to 0 would free the backing store, and the next use grow a new one.)
  const kx = (keysAtDepth[depth] ??= []);
  let n = 0;
  for (const k in x) if (hasOwn(x, k) && !omitted(x[k])) kx[n++] = k;
  let i = 0;
  for (const k in y) {
    if (!hasOwn(y, k)) continue;
    const vy = y[k];
    if (omitted(vy)) continue;
    if (i >= n || kx[i] !== k || !sameAt(x[k], vy, depth + 1)) return false;
    i++;
  }
  return i === n;
}

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

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

/** An object that is neither an array nor a plain record. */
function special(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto !== Object.prototype && proto !== null;
}
