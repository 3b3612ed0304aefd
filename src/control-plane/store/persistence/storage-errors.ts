// What a failed IndexedDB write cycle means for the cluster. A full disk is etcd's NOSPACE alarm: the keyspace goes
// read-only until space is freed; the API server answers the refused write with etcd's own error text.

/** etcd's ErrGRPCNoSpace text, as kube-apiserver passes it through (500, kubectl: "Error from server: …"). */
export const NO_SPACE_MESSAGE = 'etcdserver: mvcc: database space exceeded';

/** QuotaExceededError as browsers raise it (a DOMException by name; old WebKit: code 22). */
export function isQuotaExceeded(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { name?: unknown; code?: unknown };
  return e.name === 'QuotaExceededError' || e.code === 22;
}
