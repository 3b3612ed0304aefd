// Exactly one tab runs the control plane: the one holding the Web Lock 'kubeplay-control-plane' (held for the
// leader's whole life; the browser releases it when the holder's document goes away, and the next tab waiting for
// it gets it). A lock is not a fence (a frozen holder, `steal`): the leader epoch in IndexedDB is (leader-epoch.ts).
export const LEADER_LOCK = 'kubeplay-control-plane';

/** The part of navigator.locks used here (LockManager fits; tests pass a fake). */
export interface LocksLike {
  request(name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, callback: (lock: unknown) => Promise<unknown> | unknown): Promise<unknown>;
}

export interface ElectionCallbacks {
  /** Another tab holds the lock now; this tab waits in line. */
  onFollower(): void;
  /** This tab holds the lock (at once, or when the leader went away). */
  onLeader(): void;
}

export interface Election {
  /** Gives the lock back (or leaves the line): this tab will not lead. */
  abandon(): void;
}

export function electLeader(locks: LocksLike, callbacks: ElectionCallbacks, name: string = LEADER_LOCK): Election {
  const abort = new AbortController();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const lead = async () => {
    if (abort.signal.aborted) return;
    callbacks.onLeader();
    await held;
  };
  const ignore = () => {};
  locks
    .request(name, { ifAvailable: true }, (lock) => {
      if (lock) return lead();
      if (abort.signal.aborted) return undefined;
      callbacks.onFollower();
      // Wait in line (not inside this callback: it must end for the ifAvailable request to finish).
      locks.request(name, { signal: abort.signal }, lead).catch(ignore);
      return undefined;
    })
    .catch(ignore);
  return {
    abandon() {
      abort.abort();
      release();
    },
  };
}
