// Equality of JSON values as etcd sees them after serialisation: key order does not matter and a property whose
// value is undefined is the same as an absent one (JSON.stringify drops it). Used to make identical writes no-ops.

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const aIsArray = Array.isArray(a);
  if (aIsArray !== Array.isArray(b)) return false;
  if (aIsArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let definedInX = 0;
  for (const k in x) {
    const v = x[k];
    if (v === undefined) continue;
    definedInX++;
    if (!jsonEqual(v, y[k])) return false;
  }
  let definedInY = 0;
  for (const k in y) if (y[k] !== undefined) definedInY++;
  return definedInX === definedInY;
}
