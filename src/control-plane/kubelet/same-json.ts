// Values the kubelet keeps beside the API server's stored objects, sharing their equal parts.
import { sameJson } from '../../shared/lib/same-json';

/**
 * A value with the same JSON text as `ours` that reuses the parts of `theirs` (an object the API server
 * stores) that are JSON-equal: whole subtrees where they match, and equal strings. Nothing is copied that
 * matches, so keeping the result beside the stored object costs only the parts that differ. Both are treated
 * as immutable from then on (stored objects are frozen).
 */
export function shareWith<T>(ours: T, theirs: unknown): T {
  // A string first: === compares texts, and an equal one is theirs (the copy their object keeps alive anyway).
  if (typeof ours === 'string') return typeof theirs === 'string' && theirs === ours ? (theirs as T) : ours;
  if (ours === theirs) return ours;
  if (typeof ours !== 'object' || ours === null || typeof theirs !== 'object' || theirs === null) return ours;
  if (sameJson(ours, theirs)) return theirs as T;
  // A part where nothing of theirs was adopted is returned as it is, not copied: a copy would cost memory for
  // nothing, and would unshare what ours already shares (the kubelet's interned pod conditions).
  if (Array.isArray(ours)) {
    if (!Array.isArray(theirs)) return ours;
    let adopted = false;
    const out = ours.map((v, i) => {
      const s = shareWith(v, theirs[i]);
      if (s !== v) adopted = true;
      return s;
    });
    return (adopted ? out : ours) as T;
  }
  if (Array.isArray(theirs)) return ours;
  const x = ours as Record<string, unknown>;
  const y = theirs as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  let adopted = false;
  for (const k in x) {
    if (!Object.prototype.hasOwnProperty.call(x, k)) continue;
    const s = shareWith(x[k], y[k]);
    if (s !== x[k]) adopted = true;
    out[k] = s;
  }
  return (adopted ? out : ours) as T;
}

/**
 * shareWith for an object the caller alone holds and may change (a status the kubelet just computed): its members
 * are replaced in place by their shared forms, so it keeps the shape it was made with. A copy made member by member
 * would hold only four members in the object itself and the rest in a separate property array (~24 bytes more
 * for every pod's status). Frozen objects, and ones JSON-equal to theirs, go through shareWith.
 */
export function shareOwnWith<T extends object>(ours: T, theirs: unknown): T {
  if (Object.isFrozen(ours) || Array.isArray(ours) || typeof theirs !== 'object' || theirs === null || Array.isArray(theirs) || sameJson(ours, theirs)) {
    return shareWith(ours, theirs);
  }
  const x = ours as Record<string, unknown>;
  const y = theirs as Record<string, unknown>;
  for (const k in x) {
    if (!Object.prototype.hasOwnProperty.call(x, k)) continue;
    // Stored even when equal: an equal string is theirs, the one their object keeps (!== compares texts).
    x[k] = shareWith(x[k], y[k]);
  }
  return ours;
}
