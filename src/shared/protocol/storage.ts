// What the page learns about the cluster's storage (src/worker/storage-health.ts) and the cluster file it can
// export (src/worker/export.ts). Plain JSON.

export const StorageAlarm = {
  /** A write cycle hit the browser's storage quota: the cluster is read-only (deletes allowed) until space is freed. */
  NoSpace: 'nospace',
  /** The browser closed the database under the running cluster (site data cleared, storage evicted). */
  Cleared: 'cleared',
} as const;
export type StorageAlarm = (typeof StorageAlarm)[keyof typeof StorageAlarm];

export interface StorageStatus {
  /** Absent while storage is healthy. */
  alarm?: StorageAlarm;
  /** What to tell the user, when there is an alarm. */
  message?: string;
}

export interface ClusterExport {
  /** A `kind: List` of every user object, as `kubectl get -o yaml` would print them minus server-set fields. */
  yaml: string;
  /** How many objects it holds. */
  count: number;
}
