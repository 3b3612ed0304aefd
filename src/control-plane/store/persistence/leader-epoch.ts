// Fencing for multi-tab leadership. Web Locks elect one tab to run the control plane, but a lock is a lease, not a
// guarantee (a frozen leader, `steal: true`): so each leader claims a new epoch in the database when it starts, and
// every write transaction reads the stored epoch and aborts unless it is still its own. A stale leader can then
// never write, whatever the lock said.
import type { MetaRecord } from './indexeddb-schema';

/** The leader record's key in the "meta" store (beside META_KEY); a reset keeps it so epochs never repeat. */
export const LEADER_KEY = 'leader';

export interface LeaderRecord {
  /** Incremented by every tab that becomes the leader. */
  epoch: number;
}

/** What the "meta" store holds: the cluster meta at META_KEY, the leader record at LEADER_KEY. */
export type MetaStoreValue = MetaRecord | LeaderRecord;

export class FencedError extends Error {
  constructor(
    readonly epoch: number,
    readonly currentEpoch: number,
  ) {
    super(`this tab's control plane (leader epoch ${epoch}) was superseded by leader epoch ${currentEpoch}; the write was refused`);
    this.name = 'FencedError';
  }
}

export function isLeaderRecord(value: unknown): value is LeaderRecord {
  return typeof value === 'object' && value !== null && typeof (value as LeaderRecord).epoch === 'number';
}
