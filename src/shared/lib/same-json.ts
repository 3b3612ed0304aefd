// Whether two values have the same JSON text — JSON.stringify(a) === JSON.stringify(b) — without making the texts.
// Components compare parts of an old and a new object on every watch event (labels, owner references,
// tolerations, a pod's spec, the status the kubelet last wrote); building two strings for each comparison was
// most of that work.

/** Exactly JSON.stringify(a) === JSON.stringify(b) (no cycles): key order counts. */
export function sameJson(a: unknown, b: unknown): boolean {
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

/** An object that is neither an array nor a plain record. */
function special(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto !== Object.prototype && proto !== null;
}
