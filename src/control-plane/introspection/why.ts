// "Why does this exist?": the causal chain of trace events that created an object, root first — e.g. the user's
// create of a Deployment → its store.commit → the watch delivery to the controller manager's informer → the
// deployment controller's queue and reconcile → its create of the ReplicaSet → … → the create of this Pod.
//
// How the creation is found: every write's store.commit event names the api.request that made it as its cause
// (the API server handles a request inside that request's cause scope) and lists the keys it wrote. So:
//   1. the object's storage key comes from group/resource/namespace/name;
//   2. if the object exists and is the incarnation asked for (same uid, or no uid given), its createRevision is
//      exactly the revision of the commit that created it;
//   3. otherwise (deleted, or a recreated object of the same name) the newest commit that PUT the key and, read
//      back from the store's history, created it (createRevision = that revision) with the asked-for uid — or,
//      where the history is compacted, whose request was a create — is taken;
//   4. the chain is that commit's api.request followed back through its causes.
// The trace lives in a ring buffer and is not persisted: what it no longer holds is reported as incomplete.
import type { KubeObject } from '../../shared/api/types';
import { TraceKind, type TraceEvent } from '../../shared/protocol/trace';

/** The trace as read here (src/control-plane/trace/trace-bus.ts's TraceBus). */
export interface TraceReader {
  get(seq: number): TraceEvent | undefined;
  /** Buffered events, oldest first. */
  recent(): TraceEvent[];
}

/** The store as read here (MvccStore): the live key, and past revisions while the history holds them. */
export interface StoreReader {
  get(key: string, atRevision?: number): { value: KubeObject; createRevision: number } | undefined;
}

export interface CreationQuery {
  /** The object's storage key (store/keys.ts objectKey). */
  key: string;
  /** The incarnation asked for; without it, the live object (or the latest one created). */
  uid?: string;
}

export interface CreationChain {
  chain: TraceEvent[];
  complete: boolean;
  note?: string;
}

export const WhyNote = {
  Forgotten: 'The trace no longer holds how this object was created (the page was reloaded or it happened too long ago).',
  Truncated: 'The trace no longer holds the start of this chain (the page was reloaded or it happened too long ago): it begins with the oldest event still held.',
  NotFound: 'The trace holds no creation of this object: it does not exist, or it was created before the trace began.',
} as const;

interface CommitEventData {
  revision?: number;
  events?: { type?: string; key?: string }[];
}

function commitData(e: TraceEvent): CommitEventData {
  return e.data as CommitEventData;
}

function putsKey(e: TraceEvent, key: string): boolean {
  return (commitData(e).events ?? []).some((w) => w.key === key && w.type === 'PUT');
}

/** The store's view of key at revision, or 'unreadable' once the history is compacted past it. */
function readAt(store: StoreReader, key: string, revision: number): { value: KubeObject; createRevision: number } | undefined | 'unreadable' {
  try {
    return store.get(key, revision);
  } catch {
    return 'unreadable';
  }
}

/** The store.commit event that created this incarnation of the object, if the trace still holds it. */
function findCreateCommit(trace: TraceReader, store: StoreReader | undefined, query: CreationQuery): TraceEvent | undefined {
  const { key, uid } = query;
  const live = store?.get(key);
  const liveIsIt = live !== undefined && (uid === undefined || live.value.metadata?.uid === uid);
  const createRevision = liveIsIt ? live.createRevision : undefined;
  // A uid that is not the live object's is an earlier incarnation: created before the live one.
  const before = live !== undefined && !liveIsIt ? live.createRevision : undefined;

  const events = trace.recent();
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.kind !== TraceKind.StoreCommit) continue;
    const revision = commitData(e).revision;
    if (typeof revision !== 'number') continue;
    if (createRevision !== undefined) {
      if (revision === createRevision) return putsKey(e, key) ? e : undefined;
      if (revision < createRevision) return undefined;
      continue;
    }
    if (before !== undefined && revision >= before) continue;
    if (!putsKey(e, key)) continue;
    const at = store ? readAt(store, key, revision) : 'unreadable';
    if (at === 'unreadable') {
      // History compacted: trust the request's verb (a create of this name), unless a uid must be proven.
      const request = e.cause !== undefined ? trace.get(e.cause) : undefined;
      if (uid === undefined && request?.kind === TraceKind.ApiRequest && request.data.verb === 'create') return e;
      continue;
    }
    if (at && at.createRevision === revision && (uid === undefined || at.value.metadata?.uid === uid)) return e;
  }
  return undefined;
}

/** Follows causes back from seq; root first. complete when it ends at an event that names no cause. */
export function causesOf(trace: Pick<TraceReader, 'get'>, seq: number): { chain: TraceEvent[]; complete: boolean } {
  const chain: TraceEvent[] = [];
  const seen = new Set<number>();
  let complete = false;
  for (let e = trace.get(seq); e && !seen.has(e.seq); ) {
    seen.add(e.seq);
    chain.push(e);
    if (e.cause === undefined) {
      complete = true;
      break;
    }
    e = trace.get(e.cause);
  }
  return { chain: chain.reverse(), complete };
}

/** The chain of trace events that created the object, ending with the API request that created it. */
export function creationChain(trace: TraceReader, store: StoreReader | undefined, query: CreationQuery): CreationChain {
  const commit = findCreateCommit(trace, store, query);
  if (!commit) {
    const exists = store?.get(query.key) !== undefined;
    return { chain: [], complete: false, note: exists || !store ? WhyNote.Forgotten : WhyNote.NotFound };
  }
  const request = commit.cause !== undefined ? trace.get(commit.cause) : undefined;
  // The commit's cause is the API request that wrote it; a commit with no request behind it ends the chain itself.
  const last = request?.kind === TraceKind.ApiRequest ? request : commit;
  if (commit.cause !== undefined && !request) return { chain: [commit], complete: false, note: WhyNote.Truncated };
  const { chain, complete } = causesOf(trace, last.seq);
  return complete ? { chain, complete } : { chain, complete, note: WhyNote.Truncated };
}
