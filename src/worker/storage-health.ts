// The cluster's storage health, as the worker sees it: etcd's NOSPACE alarm when IndexedDB refuses a write for
// lack of quota, and "cleared" when the browser closes the database under the running cluster. Under NOSPACE the
// keyspace is read-only exactly as etcd makes it: every create, update and patch is refused with etcd's error
// (reads, watches and deletes still work, so the user can free space); the alarm clears once a save succeeds.
import type { ApiRequest, ApiResponse } from '../control-plane/apiserver/types';
import { Verb } from '../control-plane/apiserver/types';
import { NO_SPACE_MESSAGE } from '../control-plane/store/persistence/storage-errors';
import { StatusError } from '../shared/api/status';
import type { StorageStatus } from '../shared/protocol/storage';
import { StorageAlarm } from '../shared/protocol/storage';

export const STORAGE_CLEARED_MESSAGE =
  'The cluster storage was cleared by the browser (site data cleared or storage evicted). The cluster keeps running in this tab, but nothing more is saved: export it, or reset to start saving again.';
export const NO_SPACE_BANNER =
  'The browser is out of storage for this site, so the cluster is read-only: creating or changing objects fails with "etcdserver: mvcc: database space exceeded". Delete objects or free disk space, then retry.';

/** kube-apiserver passes etcd's error through as a bare 500 (kubectl: "Error from server: etcdserver: mvcc: database space exceeded"). */
export function newNoSpaceError(): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: NO_SPACE_MESSAGE, reason: '', code: 500 });
}

const refusedVerbs: ReadonlySet<string> = new Set([Verb.Create, Verb.Update, Verb.Patch]);

export class StorageHealth {
  private alarm: StorageAlarm | undefined;

  status(): StorageStatus {
    if (!this.alarm) return {};
    return { alarm: this.alarm, message: this.alarm === StorageAlarm.NoSpace ? NO_SPACE_BANNER : STORAGE_CLEARED_MESSAGE };
  }

  get readOnly(): boolean {
    return this.alarm === StorageAlarm.NoSpace;
  }

  /** The first alarm wins: a cleared database stays cleared even if a later write also fails. */
  raise(alarm: StorageAlarm): void {
    if (this.alarm === StorageAlarm.Cleared) return;
    this.alarm = alarm;
  }

  /** A save went through: the disk has room again. (A cleared database never recovers in this session.) */
  saved(): void {
    if (this.alarm === StorageAlarm.NoSpace) this.alarm = undefined;
  }

  /** A reset wiped and reopened the database: a fresh start, whatever happened before. */
  reset(): void {
    this.alarm = undefined;
  }

  /** Throws etcd's NOSPACE error for a write the read-only keyspace refuses. */
  check(req: ApiRequest): void {
    if (this.readOnly && refusedVerbs.has(req.verb) && !req.options?.dryRun) throw newNoSpaceError();
  }
}

/**
 * Puts the NOSPACE gate in front of the API server: every client (the page, kubectl, the controllers, the
 * kubelets) reaches storage through handle(), so all of them see the read-only keyspace, as with a real etcd.
 */
export function gateWrites(apiserver: { handle(req: ApiRequest): ApiResponse }, health: StorageHealth): void {
  const handle = apiserver.handle.bind(apiserver);
  apiserver.handle = (req: ApiRequest): ApiResponse => {
    health.check(req);
    return handle(req);
  };
}
