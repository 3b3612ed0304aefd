// One frozen copy of a small value that many objects of a kind repeat: every Event a recorder writes carries the
// same source, and the Events a kubelet records about one container (Pulled, Created, Started) the same
// involvedObject. Stored objects are frozen and toStored keeps frozen subtrees as they are, so those objects can
// all hold one copy. Only the last few values are remembered; equal means the same JSON text (key order counts),
// so what the API returns is unchanged.
import { sameJson } from '../../../shared/lib/same-json';
import { frozenCopy } from '../patch/json-value';

export class RecentValues {
  private readonly recent: unknown[] = [];

  constructor(private readonly size: number) {}

  /** value, or a frozen value with the same JSON text seen recently; a new value is remembered as a frozen copy. */
  intern<T>(value: T): T {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const recent = this.recent;
    for (let i = 0; i < recent.length; i++) {
      const r = recent[i];
      if (r === value || sameJson(r, value)) {
        // Most recently used first.
        for (let j = i; j > 0; j--) recent[j] = recent[j - 1];
        recent[0] = r;
        return r as T;
      }
    }
    if (!isFlatStrings(value)) return value;
    const copy = frozenCopy(value);
    recent.unshift(copy);
    if (recent.length > this.size) recent.pop();
    return copy;
  }
}

/** An object of string members only (an ObjectReference, an EventSource): cheap to compare, safe to share. */
function isFlatStrings(v: object): boolean {
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (typeof x !== 'string' && x !== undefined) return false;
  }
  return true;
}
