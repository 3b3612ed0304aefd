// Appearance and removal bookkeeping for animated lists (graph nodes, pod chips): an item that disappears from
// the data stays for a moment as a "leaving" ghost, so the view can fade it out where it was instead of dropping
// it. Pure; the clock (real milliseconds, not simulated time: it is an animation) is passed in.

/** How long a removed item stays as a fading ghost, in real milliseconds. */
export const leaveDurationMs = 600;

export interface Presence<T> {
  key: string;
  /** The item as last seen (a ghost keeps its last state). */
  item: T;
  /** Set while leaving: when the item disappeared from the data. */
  leavingSince?: number;
}

export type PresenceMap<T> = ReadonlyMap<string, Presence<T>>;

/**
 * The items now present, then the ghosts of those that went away (kept with their first leaving time). An entry
 * whose item did not change keeps its identity, so memoized views of it do not re-render. An item that comes
 * back while leaving is present again.
 */
export function reconcilePresence<T>(previous: PresenceMap<T>, items: readonly T[], keyOf: (item: T) => string, now: number): Map<string, Presence<T>> {
  const next = new Map<string, Presence<T>>();
  for (const item of items) {
    const key = keyOf(item);
    const before = previous.get(key);
    next.set(key, before && before.item === item && before.leavingSince === undefined ? before : { key, item });
  }
  for (const [key, before] of previous) {
    if (next.has(key)) continue;
    next.set(key, before.leavingSince === undefined ? { key, item: before.item, leavingSince: now } : before);
  }
  return next;
}

/** Drops the ghosts that have been leaving for `leaveMs` or more; the same map when none has. */
export function pruneDeparted<T>(entries: PresenceMap<T>, now: number, leaveMs: number): PresenceMap<T> {
  let pruned: Map<string, Presence<T>> | undefined;
  for (const [key, p] of entries) {
    if (p.leavingSince === undefined || now - p.leavingSince < leaveMs) continue;
    pruned ??= new Map(entries);
    pruned.delete(key);
  }
  return pruned ?? entries;
}

/** When the next ghost is due to go (real ms), or undefined when none is leaving. */
export function nextDeparture<T>(entries: PresenceMap<T>, leaveMs: number): number | undefined {
  let next: number | undefined;
  for (const p of entries.values()) {
    if (p.leavingSince === undefined) continue;
    const due = p.leavingSince + leaveMs;
    if (next === undefined || due < next) next = due;
  }
  return next;
}

export function isLeaving<T>(p: Presence<T>): boolean {
  return p.leavingSince !== undefined;
}
