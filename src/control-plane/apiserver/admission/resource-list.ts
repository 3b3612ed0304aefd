// corev1.ResourceList arithmetic as pkg/quota/v1/resources.go and component-helpers/resource do it, over parsed
// quantities. Keys stay in insertion order; printing sorts them where Kubernetes sorts.
import {
  type Quantity,
  addQuantities,
  compareQuantities,
  parseQuantityJSON,
  quantityToString,
  sign,
  subtractQuantities,
  zeroQuantity,
} from '../../../shared/lib/quantity';

export type ResourceList = Map<string, Quantity>;

/** A ResourceList from an object field (`{cpu: "500m", memory: 1073741824}`); unparsable entries are skipped. */
export function parseResourceList(value: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (!value || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    try {
      out.set(k, parseQuantityJSON(v));
    } catch {
      // Validation reports bad quantities; admission only counts the good ones.
    }
  }
  return out;
}

export function resourceListToJSON(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of list) out[k] = quantityToString(v);
  return out;
}

/** quota.Add: the union, summing shared keys (the left value's format wins). */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    out.set(k, cur ? addQuantities(cur, v) : v);
  }
  return out;
}

/** In place, as addResourceList in component-helpers does. */
export function addInto(target: ResourceList, b: ResourceList): void {
  for (const [k, v] of b) {
    const cur = target.get(k);
    target.set(k, cur ? addQuantities(cur, v) : v);
  }
}

/** In place: the larger of each value (maxResourceList). */
export function maxInto(target: ResourceList, b: ResourceList): void {
  for (const [k, v] of b) {
    const cur = target.get(k);
    if (!cur || compareQuantities(v, cur) > 0) target.set(k, v);
  }
}

/** quota.SubtractWithNonNegativeResult. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of a) {
    const other = b.get(k);
    let value = other ? subtractQuantities(v, other) : v;
    if (sign(value) < 0) value = zeroQuantity(value.format);
    out.set(k, value);
  }
  for (const [k, v] of b) if (!a.has(k)) out.set(k, zeroQuantity(v.format));
  return out;
}

/** quota.Mask: only the named keys. */
export function mask(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const n of names) {
    const v = list.get(n);
    if (v) out.set(n, v);
  }
  return out;
}

/** quota.LessThanOrEqual: keys of b that a exceeds (keys missing from a are fine). */
export function exceededKeys(a: ResourceList, b: ResourceList): string[] {
  const out: string[] = [];
  for (const [k, limit] of b) {
    const v = a.get(k);
    if (v && compareQuantities(v, limit) > 0) out.push(k);
  }
  return out;
}

export function isZeroList(list: ResourceList): boolean {
  for (const v of list.values()) if (sign(v) !== 0) return false;
  return true;
}

export function negativeKeys(list: ResourceList): string[] {
  return [...list].filter(([, v]) => sign(v) < 0).map(([k]) => k);
}

export function listsEqual(a: ResourceList, b: ResourceList): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const o = b.get(k);
    if (!o || compareQuantities(v, o) !== 0) return false;
  }
  return true;
}

/** prettyPrint in the quota admission controller: `k=v,k2=v2`, keys sorted. */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${quantityToString(list.get(k) as Quantity)}`)
    .join(',');
}
