// Per-subscription object diffs, as the worker accumulates them between two frames and the UI applies them.
// Shape and squash rules follow tldraw's RecordsDiff: added-then-removed vanishes, removed-then-added becomes
// an update, and only the last value of an update survives. The UI already holds the "from" side of an
// update, so updates carry only the new value.
import type { KubeObject, WatchEvent } from '../api/types';
import { WatchEventType } from '../api/types';

export interface ObjectDiff<T = KubeObject> {
  added: Record<string, T>;
  updated: Record<string, T>;
  /** The last state of each removed object (as the DELETED watch event carried it). */
  removed: Record<string, T>;
}

/** One change to one key, in the order it happened. */
export type ObjectChange<T = KubeObject> =
  | { type: 'added'; key: string; object: T }
  | { type: 'updated'; key: string; object: T }
  | { type: 'removed'; key: string; object: T };

export function emptyDiff<T = KubeObject>(): ObjectDiff<T> {
  return { added: {}, updated: {}, removed: {} };
}

export function isEmptyDiff(diff: ObjectDiff<unknown>): boolean {
  for (const _ in diff.added) return false;
  for (const _ in diff.updated) return false;
  for (const _ in diff.removed) return false;
  return true;
}

/** The key a watch of one resource identifies an object by: "namespace/name", or "name" when cluster-scoped. */
export function objectKey(obj: { metadata: KubeObject['metadata'] }): string {
  const ns = obj.metadata.namespace;
  return ns ? `${ns}/${obj.metadata.name ?? ''}` : (obj.metadata.name ?? '');
}

/**
 * Folds one change into an accumulating diff, in place. Private to accumulators (the worker's per-subscription
 * buffer); everything else uses the pure squash().
 *
 *   state of key  +  change   →  new state
 *   (none)           x        →  x
 *   added            updated  →  added (new value)     added    + removed → (none)
 *   updated          updated  →  updated (new value)   updated  + removed → removed
 *   removed          added    →  updated (new value)   removed  + updated → updated
 */
export function recordChange<T>(diff: ObjectDiff<T>, change: ObjectChange<T>): void {
  const { key, object } = change;
  if (key in diff.added) {
    if (change.type === 'removed') delete diff.added[key];
    else diff.added[key] = object;
    return;
  }
  if (key in diff.removed) {
    if (change.type === 'removed') {
      diff.removed[key] = object;
    } else {
      delete diff.removed[key];
      diff.updated[key] = object;
    }
    return;
  }
  if (key in diff.updated) {
    if (change.type === 'removed') {
      delete diff.updated[key];
      diff.removed[key] = object;
    } else {
      diff.updated[key] = object;
    }
    return;
  }
  diff[change.type][key] = object;
}

/** The diff equivalent to applying `first` then `second`. Pure: neither argument is modified. */
export function squash<T>(first: ObjectDiff<T>, second: ObjectDiff<T>): ObjectDiff<T> {
  const out: ObjectDiff<T> = { added: { ...first.added }, updated: { ...first.updated }, removed: { ...first.removed } };
  // Within one diff a key sits in exactly one of the three maps, so the order among them does not matter.
  for (const [key, object] of Object.entries(second.removed)) recordChange(out, { type: 'removed', key, object });
  for (const [key, object] of Object.entries(second.added)) recordChange(out, { type: 'added', key, object });
  for (const [key, object] of Object.entries(second.updated)) recordChange(out, { type: 'updated', key, object });
  return out;
}

/** A watch event as a change (BOOKMARK and ERROR carry no object change and give undefined). */
export function changeFromWatchEvent(event: WatchEvent): ObjectChange | undefined {
  switch (event.type) {
    case WatchEventType.Added:
      return { type: 'added', key: objectKey(event.object), object: event.object };
    case WatchEventType.Modified:
      return { type: 'updated', key: objectKey(event.object), object: event.object };
    case WatchEventType.Deleted:
      return { type: 'removed', key: objectKey(event.object), object: event.object };
    default:
      return undefined;
  }
}

/**
 * Applies a diff to a keyed collection, returning a new Map (the input is not modified) — what a store's
 * single writer does with each batch.
 */
export function applyDiff<T>(current: ReadonlyMap<string, T>, diff: ObjectDiff<T>): Map<string, T> {
  const next = new Map(current);
  for (const key of Object.keys(diff.removed)) next.delete(key);
  for (const [key, object] of Object.entries(diff.added)) next.set(key, object);
  for (const [key, object] of Object.entries(diff.updated)) next.set(key, object);
  return next;
}

/** What takeWithin moved out of a pending diff, and its estimated wire size. */
export interface TakenDiff<T> {
  diff: ObjectDiff<T>;
  bytes: number;
  /** Whether changes are left behind in the pending diff for a later batch. */
  more: boolean;
}

/**
 * Moves changes out of `pending` (in place) into a new diff until their estimated size reaches `budget`: removals
 * first (small, and they free the receiver's memory), then additions, then updates, each oldest first. Whatever
 * does not fit stays in `pending`, where later changes to the same key keep squashing into it (recordChange), so
 * a backlog is bounded by the number of distinct keys, never by the number of events. Keys are independent: a
 * receiver that applied any subset holds, per key, either its old state or the latest one. With `atLeastOne`, one
 * change is taken even when it alone is over the budget, so an object larger than the budget still gets through.
 */
export function takeWithin<T>(pending: ObjectDiff<T>, budget: number, sizeOf: (key: string, object: T) => number, atLeastOne: boolean): TakenDiff<T> {
  const out = emptyDiff<T>();
  let bytes = 0;
  let taken = 0;
  let more = false;
  for (const part of ['removed', 'added', 'updated'] as const) {
    const from = pending[part];
    const keys: string[] = [];
    for (const key in from) {
      const size = sizeOf(key, from[key]);
      if (bytes + size > budget && !(atLeastOne && taken === 0)) {
        more = true;
        break;
      }
      bytes += size;
      taken++;
      keys.push(key);
    }
    for (const key of keys) {
      out[part][key] = from[key];
      delete from[key];
    }
    if (more) break;
  }
  return { diff: out, bytes, more };
}

/** Whether every change in `diff` fits in `budget` bytes (stops measuring as soon as it does not). */
export function fitsWithin<T>(diff: ObjectDiff<T>, budget: number, sizeOf: (key: string, object: T) => number): boolean {
  let bytes = 0;
  for (const part of ['removed', 'added', 'updated'] as const) {
    const from = diff[part];
    for (const key in from) {
      bytes += sizeOf(key, from[key]);
      if (bytes > budget) return false;
    }
  }
  return true;
}
