// The JSON length of an immutable value, measured once per object. Stored objects are frozen and shared (the
// store's value, every watcher's event, the page's watch batch), so the worker's frame budget and the playground's
// stored-bytes figure size each version once between them instead of once each.
const lengths = new WeakMap<object, number>();

/** JSON.stringify(value).length, remembered by identity: only for values that are never mutated. */
export function frozenJsonLength(value: object): number {
  let n = lengths.get(value);
  if (n === undefined) {
    n = JSON.stringify(value).length;
    lengths.set(value, n);
  }
  return n;
}
