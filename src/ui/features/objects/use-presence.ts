// React binding of presence.ts: the list to render, ghosts included, re-rendered once when each ghost is due.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Presence, PresenceMap } from './presence';
import { leaveDurationMs, nextDeparture, pruneDeparted, reconcilePresence } from './presence';

const realNow = () => (typeof performance === 'object' ? performance.now() : 0);

/** `items` with the ghosts of removed ones (leavingSince set) for `leaveMs` real milliseconds. */
export function usePresence<T>(items: readonly T[], keyOf: (item: T) => string, leaveMs: number = leaveDurationMs): PresenceMap<T> {
  const previous = useRef<PresenceMap<T>>(new Map());
  const [expired, setExpired] = useState(0);
  const entries = useMemo(() => {
    const now = realNow();
    return pruneDeparted(reconcilePresence(previous.current, items, keyOf, now), now, leaveMs);
    // keyOf must be stable (module-level); `expired` re-runs the pruning when a ghost is due.
  }, [items, expired, leaveMs]);
  previous.current = entries;
  useEffect(() => {
    const due = nextDeparture(entries, leaveMs);
    if (due === undefined) return;
    const timer = setTimeout(() => setExpired((n) => n + 1), Math.max(0, due - realNow()) + 16);
    return () => clearTimeout(timer);
  }, [entries, leaveMs]);
  return entries;
}

export type { Presence };
