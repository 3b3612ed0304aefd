// The etcd analogue's contract. Keys are strings; values are plain JSON API objects. The store knows nothing of
// Kubernetes semantics beyond holding objects: resourceVersion is filled in by the API server's storage layer
// from modRevision when an object is read.
import type { KubeObject } from '../../shared/api/types';

export interface KeyValue {
  key: string;
  value: KubeObject;
  /** Revision of the write that created this key (since its last deletion). */
  createRevision: number;
  /** Revision of the last write to this key. */
  modRevision: number;
  /** Number of writes to the key since creation, starting at 1. */
  version: number;
}

export const StoreEventType = { Put: 'PUT', Delete: 'DELETE' } as const;
export type StoreEventType = (typeof StoreEventType)[keyof typeof StoreEventType];

export interface StoreEvent {
  type: StoreEventType;
  /** For DELETE, kv holds the deleted value with modRevision set to the deleting revision. */
  kv: KeyValue;
  /** The value before this write; absent on create. */
  prevKv?: KeyValue;
}

/** All events of one revision. A multi-key transaction is one revision and is delivered as one batch. */
export interface RevisionBatch {
  revision: number;
  events: StoreEvent[];
}

/** A compare in a transaction: the key's modRevision must equal the value (0 = the key must not exist). */
export interface Compare {
  key: string;
  modRevision: number;
}

export type TxnOp = { type: 'put'; key: string; value: KubeObject } | { type: 'delete'; key: string };

export interface TxnResult {
  succeeded: boolean;
  /** The store revision after the transaction (unchanged when it failed or changed nothing). */
  revision: number;
  /** For each op, the resulting key-value (for delete, the deleted one), or undefined when the op was a no-op. */
  results: (KeyValue | undefined)[];
}

export interface RangeResult {
  kvs: KeyValue[];
  /** The revision the range was read at. */
  revision: number;
}

export interface WatchOptions {
  /** Deliver every event with revision > afterRevision. Must be ≥ compactRevision; else a 410 Gone StatusError is thrown. */
  afterRevision: number;
  /** When set, deliver only events whose key starts with this prefix. */
  prefix?: string;
  /**
   * Optional: the watcher selects objects by one exact value (a field selector such as spec.nodeName=node-1).
   * The store then hands it only the revisions in which some object's old or new value is that value (and,
   * while `quietBatchesFrom` says so, revisions with nothing for it), instead of every revision under the
   * prefix. Nothing else changes: the batches it receives, their order and their order relative to other
   * watchers are those an unindexed watcher would get, less the ones that carry nothing for it. Used only
   * when the prefix is a directory (ends in '/'); otherwise ignored.
   */
  index?: WatchIndex;
}

/** See WatchOptions.index. */
export interface WatchIndex {
  /** Watchers of one prefix that give the same name must give the same valueOf (e.g. 'spec.nodeName'). */
  name: string;
  /** The value this watcher selects. */
  value: string;
  /** An object's value under this name ('' when it has none). Called for stored values, which never change. */
  valueOf(object: KubeObject): string;
  /**
   * The clock time from which the watcher also wants revisions that carry nothing for it (a periodic bookmark),
   * read again after every delivery to it; Infinity or absent: never. It may be early, never late.
   */
  quietBatchesFrom?(): number;
}

export interface StoreWatch {
  cancel(): void;
}

export interface Store {
  /** The current global revision: the revision of the last write (0 when empty). */
  readonly revision: number;
  /** The oldest revision history is still kept from; reads and watches before it get 410. */
  readonly compactRevision: number;

  /** Reads a key at the current revision, or at an older one still in history. */
  get(key: string, atRevision?: number): KeyValue | undefined;
  /** All keys with the prefix, sorted by key, consistent at one revision. */
  range(prefix: string, atRevision?: number): RangeResult;
  /** Count of live keys with the prefix (for quota and benchmarks), at the current revision. */
  count(prefix: string): number;

  /**
   * Compare-and-swap over any number of keys: if every compare holds, all ops apply at ONE new revision;
   * otherwise nothing changes. A put whose value is deep-equal to the current one is a no-op; a transaction
   * whose ops are all no-ops creates no revision.
   */
  txn(compares: Compare[], ops: TxnOp[]): TxnResult;

  /**
   * Delivers, in revision order and exactly once, every later batch to the handler, each through the clock's
   * defer() so handlers never run inside a write. Throws 410 Gone (too old resource version) if afterRevision
   * is older than the compaction point, 504 if it is in the future.
   */
  watch(options: WatchOptions, handler: (batch: RevisionBatch) => void): StoreWatch;

  /** Drops history up to the revision; later reads/watches below it get 410. */
  compact(revision: number): void;
}
