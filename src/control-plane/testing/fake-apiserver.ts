// A minimal API server over the real MvccStore, for unit tests of the client side (informers, controllers)
// without the full request pipeline: create/get/list/update/delete and list+watch with the store's revision
// semantics (resourceVersion = modRevision, 410 Expired for compacted revisions). No admission, no RBAC, no
// defaulting. Integration tests use createCluster instead.
import type { Status } from '../../shared/api/status';
import { newAlreadyExists, newConflict, newNotFound, OptimisticLockErrorMsg, StatusError, toStatus } from '../../shared/api/status';
import type { KubeObject, WatchEvent } from '../../shared/api/types';
import { WatchEventType } from '../../shared/api/types';
import type { ApiRequest, ApiResponse } from '../apiserver/types';
import type { ApiServerPort, WatchHandle, WatchHandler } from '../client/client';
import type { Clock } from '../sim/clock';
import type { KeyValue, RevisionBatch } from '../store/types';
import { StoreEventType } from '../store/types';
import { MvccStore } from '../store/mvcc-store';
import { objectKey, resourcePrefix } from '../store/keys';

export interface FakeApiServerOptions {
  clock: Clock;
  historyRevisions?: number;
}

export class FakeApiServer implements ApiServerPort {
  readonly store: MvccStore;
  readonly requests: ApiRequest[] = [];
  /** Open watches, for tests that cut them. */
  readonly watches = new Set<{ req: ApiRequest; handler: WatchHandler; stop(): void }>();
  private uid = 0;
  private readonly clock: Clock;

  constructor(options: FakeApiServerOptions) {
    this.clock = options.clock;
    this.store = new MvccStore({ clock: options.clock, historyRevisions: options.historyRevisions });
  }

  handle(req: ApiRequest): ApiResponse {
    this.requests.push(req);
    const gr = { group: req.group, resource: req.resource };
    const key = () => objectKey(gr, req.namespace, req.name ?? '');
    switch (req.verb) {
      case 'get': {
        const kv = this.store.get(key());
        if (!kv) throw newNotFound(gr, req.name ?? '');
        return { code: 200, body: withRV(kv) };
      }
      case 'list': {
        const { kvs, revision } = this.store.range(resourcePrefix(gr, req.namespace));
        return { code: 200, body: { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: String(revision) }, items: kvs.map(withRV) } };
      }
      case 'create': {
        const obj = structuredClone(req.body) as KubeObject;
        const name = obj.metadata.name ?? '';
        const namespace = req.namespace ?? obj.metadata.namespace;
        const k = objectKey(gr, namespace, name);
        const { resourceVersion: _rv, namespace: _ns, ...meta } = obj.metadata;
        const stored: KubeObject = { ...obj, metadata: { ...meta, ...(namespace ? { namespace } : {}), uid: `uid-${++this.uid}` } };
        const res = this.store.txn([{ key: k, modRevision: 0 }], [{ type: 'put', key: k, value: stored }]);
        if (!res.succeeded) throw newAlreadyExists(gr, name);
        return { code: 201, body: withRV(res.results[0]!) };
      }
      case 'update': {
        const obj = structuredClone(req.body) as KubeObject;
        const k = key();
        const cur = this.store.get(k);
        if (!cur) throw newNotFound(gr, req.name ?? '');
        const rv = obj.metadata.resourceVersion;
        if (rv && rv !== String(cur.modRevision)) throw newConflict(gr, req.name ?? '', OptimisticLockErrorMsg);
        const { resourceVersion: _rv, ...meta } = obj.metadata;
        const stored: KubeObject = { ...obj, metadata: { ...meta, uid: cur.value.metadata.uid } };
        const res = this.store.txn([{ key: k, modRevision: cur.modRevision }], [{ type: 'put', key: k, value: stored }]);
        if (!res.succeeded) throw newConflict(gr, req.name ?? '', OptimisticLockErrorMsg);
        return { code: 200, body: withRV(res.results[0] ?? cur) };
      }
      case 'delete': {
        const k = key();
        const res = this.store.txn([], [{ type: 'delete', key: k }]);
        if (!res.results[0]) throw newNotFound(gr, req.name ?? '');
        return { code: 200, body: withRV(res.results[0]) };
      }
      default:
        throw new StatusError(toStatus(new Error(`fake server: ${req.verb} not supported`)));
    }
  }

  /** Ends every open watch with an ERROR event carrying the status (delivered on the next deferred turn). */
  failWatches(status: Status): void {
    for (const w of [...this.watches]) {
      w.stop();
      this.clock.defer(() => w.handler([{ type: WatchEventType.Error, object: status as unknown as KubeObject }]));
    }
  }

  /** List+watch semantics: unset resourceVersion → ADDED for current objects first; "N" → events after N. */
  watch(req: ApiRequest, handler: WatchHandler): WatchHandle {
    const prefix = resourcePrefix({ group: req.group, resource: req.resource }, req.namespace);
    const rvOpt = req.options?.resourceVersion;
    let after: number;
    let initial: WatchEvent[] = [];
    if (rvOpt === undefined || rvOpt === '') {
      const { kvs, revision } = this.store.range(prefix);
      after = revision;
      initial = kvs.map((kv) => ({ type: WatchEventType.Added, object: withRV(kv) }));
    } else {
      after = Number(rvOpt);
    }
    let stopped = false;
    let sw: { cancel(): void } | undefined;
    try {
      sw = this.store.watch({ afterRevision: after, prefix }, (batch) => {
        if (!stopped) handler(batch.events.map(toWatchEvent));
      });
    } catch (err) {
      // As the API server does for an open watch: one ERROR event carrying the Status.
      const status = toStatus(err);
      this.clock.defer(() => {
        if (!stopped) handler([{ type: WatchEventType.Error, object: status as unknown as KubeObject }]);
      });
    }
    if (initial.length > 0) {
      this.clock.defer(() => {
        if (!stopped) handler(initial);
      });
    }
    const entry = {
      req,
      handler,
      stop: () => {
        stopped = true;
        sw?.cancel();
        this.watches.delete(entry);
      },
    };
    this.watches.add(entry);
    return entry;
  }
}

function withRV(kv: KeyValue): KubeObject {
  return { ...kv.value, metadata: { ...kv.value.metadata, resourceVersion: String(kv.modRevision) } };
}

function toWatchEvent(ev: RevisionBatch['events'][number]): WatchEvent {
  if (ev.type === StoreEventType.Delete) {
    return { type: WatchEventType.Deleted, object: withRV({ ...ev.prevKv!, modRevision: ev.kv.modRevision }) };
  }
  return { type: ev.prevKv ? WatchEventType.Modified : WatchEventType.Added, object: withRV(ev.kv) };
}
