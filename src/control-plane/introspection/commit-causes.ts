// Which store.commit trace event recorded each recent revision. The store hands a revision to its watchers on a
// later deferred turn, outside the cause scope of the request that wrote it; the API server's watch looks the
// commit up here so its watch.delivery names that store.commit as its cause. That is the hop that lets a chain
// api.request → store.commit → watch.delivery → informer → queue → reconcile → api.request be followed back.
//
// Keyed by the store (revisions are the store's): cluster.ts attaches one to its store and records every commit;
// a bare API server in a test has none, and its deliveries simply name no commit.

/** Revisions remembered; a watcher lagging further behind than this delivers without a cause. */
const defaultCapacity = 16_384;

export class CommitCauses {
  private readonly revisions: Float64Array;
  private readonly seqs: Float64Array;

  constructor(readonly capacity = defaultCapacity) {
    this.revisions = new Float64Array(capacity);
    this.seqs = new Float64Array(capacity);
  }

  /** The store.commit event with seq recorded revision. */
  record(revision: number, seq: number): void {
    const i = revision % this.capacity;
    this.revisions[i] = revision;
    this.seqs[i] = seq;
  }

  /** seq of the store.commit event of revision, while remembered. */
  seqOf(revision: number): number | undefined {
    const i = revision % this.capacity;
    return this.revisions[i] === revision && this.seqs[i] > 0 ? this.seqs[i] : undefined;
  }
}

const byStore = new WeakMap<object, CommitCauses>();

export function attachCommitCauses(store: object, causes: CommitCauses): void {
  byStore.set(store, causes);
}

export function commitCausesOf(store: object): CommitCauses | undefined {
  return byStore.get(store);
}
