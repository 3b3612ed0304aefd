// Freezing JSON values in place: stored objects, informer caches and the kubelet's object cache share their
// objects read-only, so one reader's change cannot reach another.

/** Freezes a JSON value in place, skipping parts already frozen (their subtrees were frozen with them). */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}
