// Where committed revisions go to survive a reload. The store commits in memory first (synchronously); the
// persistence writes behind in batched transactions, and whenDurable() tells the worker when it may
// acknowledge a write to the UI.
import type { ClusterSettings } from '../../../shared/protocol/introspection';
import type { KeyValue, RevisionBatch } from '../types';

/** Cluster-wide state saved alongside the objects, atomically with them. */
export interface ClusterMeta {
  /** Virtual clock time, ms, so time resumes where it was. */
  clockTime: number;
  /** Seeded rng state, so the random stream continues. */
  rngState: number;
  seed: number;
  /** The demo-timing settings (config/cluster-settings.ts); absent in clusters saved before they existed. */
  settings?: Partial<ClusterSettings>;
  [extra: string]: unknown;
}

export interface PersistedSnapshot {
  schemaVersion: number;
  /** The store revision the snapshot is consistent at. */
  revision: number;
  kvs: KeyValue[];
  meta: ClusterMeta | undefined;
}

export interface Persistence {
  /** The last durable state, or undefined when nothing was ever saved. */
  load(): Promise<PersistedSnapshot | undefined>;
  /** Queues a committed revision for writing; never splits a batch across transactions. */
  enqueue(batch: RevisionBatch): void;
  /** Queues cluster meta; written in the same transaction as the next batch (or on its own). */
  setMeta(meta: ClusterMeta): void;
  /** Resolves once everything queued so far is durable; rejects if the write failed. */
  flush(): Promise<void>;
  /** Resolves once the given revision (and all before it) is durable. */
  whenDurable(revision: number): Promise<void>;
  /** The highest revision known durable. */
  readonly durableRevision: number;
  /** Deletes everything ("Reset cluster"). */
  clear(): Promise<void>;
  close(): void;
}
