// WATCH (api-concepts "Efficient detection of changes"; the watch cache's semantics):
//   resourceVersion unset or "0": synthetic ADDED events for the current state, then every later change;
//   "N": every change after revision N; older than the kept history → one ERROR event (410 Expired,
//   "too old resource version: N (M)"); in the future → 504.
// Label and field selectors filter per event: an object that stops matching arrives as DELETED (with its
// last matching content), one that starts matching as ADDED. Events arrive in one handler call per store
// revision, through the clock's defer, each object with metadata.resourceVersion = its modRevision. Event
// objects are frozen and shared by every watcher of the revision (one view per stored kv, not a copy each).
// Bookmarks (allowWatchBookmarks) carry only a resourceVersion: sent when a revision had nothing for this
// watcher and a minute has passed since the last delivery, or on demand. sendInitialEvents ends the initial
// state with a BOOKMARK annotated k8s.io/initial-events-end: "true".
// A field selector with an exact requirement (spec.nodeName=node-1, as every kubelet's) indexes the watch in the
// store, so a write reaches it only when its object had or has that value; while a bookmark may be due it gets
// every revision again, as the bookmark rule above needs.
import { newTooLargeResourceVersion, newTooOldResourceVersion, toStatus, type Status } from '../../../shared/api/status';
import { formatApiVersion, WatchEventType, type KubeObject, type WatchEvent } from '../../../shared/api/types';
import { TraceKind } from '../../../shared/protocol/trace';
import { resourcePrefix } from '../../store/keys';
import { StoreEventType, type RevisionBatch, type StoreEvent, type StoreWatch, type WatchIndex, type WatchOptions } from '../../store/types';
import type { ResourceContext } from '../pipeline/context';
import { storedView } from '../storage/object-codec';
import { exactFieldRequirement, parseSelection, selectionMatches, storedFieldValue } from '../storage/selection';
import { newInvalid } from '../../../shared/api/status';
import { fieldErr } from '../../../shared/api/field-errors';
import { withCause } from '../../trace/trace-bus';
import { commitCausesOf } from '../../introspection/commit-causes';
import { tableWatchHandler } from '../printers/convert';

export const InitialEventsAnnotationKey = 'k8s.io/initial-events-end';

/** How long a watcher may go without hearing anything before a quiet revision earns it a bookmark. */
const bookmarkIntervalMs = 60_000;

export interface ServerWatch {
  stop(): void;
  /** Sends a BOOKMARK at the current revision now (when the watch allows bookmarks). */
  requestBookmark(): void;
}

let nextWatchId = 1;

export function startWatch(ctx: ResourceContext, handler: (events: WatchEvent[]) => void): ServerWatch {
  const { store, clock, trace } = ctx.server;
  const opts = ctx.req.options ?? {};
  // as=Table: each object event carries a one-row Table, as kubectl get -w asks.
  if (opts.as === 'Table') handler = tableWatchHandler(ctx.rt, { now: () => clock.now(), reader: ctx.server.reader, includeObject: opts.includeObject }, handler);
  const selection = parseSelection(opts, ctx.rt, ctx.strategy);
  const prefix = resourcePrefix(ctx.rt, ctx.rt.namespaced ? ctx.namespace : undefined);
  const watchId = `watch-${nextWatchId++}`;
  const bookmarks = !!opts.allowWatchBookmarks;
  const apiVersion = formatApiVersion(ctx.rt.group, ctx.rt.version);

  let stopped = false;
  let storeWatch: (StoreWatch & { progressRevision?(): number }) | undefined;
  let lastDelivery = clock.now();
  let lastRevision = store.revision;

  // Who watches (the page draws the delivery to that component) and which commit each live batch comes from.
  const user = ctx.user?.username ?? '';
  const namespace = ctx.namespace ?? '';
  const commits = commitCausesOf(store);

  /** cause: the store.commit of a live revision, or the watch request for its initial state. */
  const deliver = (events: WatchEvent[], revision?: number, cause?: number): void => {
    if (stopped || events.length === 0) return;
    lastDelivery = clock.now();
    const data = { watch: watchId, resource: ctx.rt.resource, group: ctx.rt.group, namespace, count: events.length, revision, user };
    const seq = trace.emit(
      cause !== undefined
        ? { kind: TraceKind.WatchDelivery, component: 'apiserver', requestId: ctx.id, cause, data }
        : { kind: TraceKind.WatchDelivery, component: 'apiserver', requestId: ctx.id, data },
    );
    // What the watcher does with these events (an informer delta, a reconcile) names this delivery as its cause.
    withCause(trace, seq, () => handler(events));
  };

  const bookmark = (revision: number, annotations?: Record<string, string>): WatchEvent => {
    const metadata: KubeObject['metadata'] = { resourceVersion: String(revision) };
    if (annotations) metadata.annotations = annotations;
    return { type: WatchEventType.Bookmark, object: { apiVersion, kind: ctx.rt.kind, metadata } };
  };

  const errorEvent = (status: Status): WatchEvent => ({ type: WatchEventType.Error, object: status as unknown as KubeObject });

  const matches = (obj: KubeObject): boolean => selectionMatches(selection, obj, ctx.rt, ctx.strategy);

  /** What a store event is to this watcher, if anything. */
  const watchEventOf = (ev: StoreEvent, revision: number): WatchEvent | undefined => {
    // A watch without selectors (every informer's) takes every event as it is: no selection to evaluate.
    if (selection.everything) {
      const type = ev.type === StoreEventType.Delete ? WatchEventType.Deleted : ev.prevKv ? WatchEventType.Modified : WatchEventType.Added;
      return { type, object: storedView(ev.kv) };
    }
    if (ev.type === StoreEventType.Delete) {
      const last = ev.prevKv?.value ?? ev.kv.value;
      return matches(last) ? { type: WatchEventType.Deleted, object: storedView(ev.kv) } : undefined;
    }
    const nowMatches = matches(ev.kv.value);
    const wasMatching = ev.prevKv ? matches(ev.prevKv.value) : false;
    if (nowMatches) return { type: wasMatching ? WatchEventType.Modified : WatchEventType.Added, object: storedView(ev.kv) };
    // Stopped matching: a delete carrying the last matching content at this event's revision.
    if (wasMatching && ev.prevKv) return { type: WatchEventType.Deleted, object: storedView(ev.prevKv, revision) };
    return undefined;
  };

  const onBatch = (batch: RevisionBatch): void => {
    if (stopped) return;
    lastRevision = batch.revision;
    // Most batches reach a watcher with nothing for it (every kubelet sees every pod write): the list is made
    // only when an event matches.
    let events: WatchEvent[] | undefined;
    const all = batch.events;
    for (let i = 0; i < all.length; i++) {
      const out = watchEventOf(all[i]!, batch.revision);
      if (out) (events ??= []).push(out);
    }
    if (events) deliver(events, batch.revision, commits?.seqOf(batch.revision));
    else if (bookmarks && clock.now() - lastDelivery >= bookmarkIntervalMs) deliver([bookmark(batch.revision)], batch.revision);
  };

  const onError = (status: Status): void => {
    if (stopped) return;
    deliver([errorEvent(status)]);
    stop();
  };

  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    storeWatch?.cancel();
  };

  const rv = opts.resourceVersion ?? '';
  const sendInitialEvents = opts.sendInitialEvents ?? (rv === '' || rv === '0');
  let startRevision: number;
  if (rv === '' || rv === '0') {
    startRevision = store.revision;
  } else {
    if (!/^[0-9]+$/.test(rv)) {
      throw newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [fieldErr.invalid('resourceVersion', rv, 'must be a non-negative integer')]);
    }
    const n = Number(rv);
    if (n > store.revision) throw newTooLargeResourceVersion(n, store.revision);
    if (n < store.compactRevision) {
      // The watch is established (HTTP 200) and its one event says why it ends.
      const status = newTooOldResourceVersion(n, store.compactRevision).status;
      clock.defer(() => deliver([errorEvent(status)]), `watch ${watchId} expired`);
      return { stop, requestBookmark: () => undefined };
    }
    startRevision = opts.sendInitialEvents ? store.revision : n;
  }

  if (sendInitialEvents) {
    const range = store.range(prefix, startRevision);
    const initial: WatchEvent[] = [];
    for (const kv of range.kvs) if (matches(kv.value)) initial.push({ type: WatchEventType.Added, object: storedView(kv) });
    if (opts.sendInitialEvents) initial.push(bookmark(startRevision, { [InitialEventsAnnotationKey]: 'true' }));
    clock.defer(() => deliver(initial, startRevision, ctx.requestSeq || undefined), `watch ${watchId} initial events`);
  }

  const exact = exactFieldRequirement(selection);
  const index: WatchIndex | undefined = exact && {
    name: `${ctx.rt.group}/${ctx.rt.resource} ${exact.field}`,
    value: exact.value,
    valueOf: (obj) => storedFieldValue(obj, exact.field, ctx.rt, ctx.strategy),
    // A quiet revision matters only once a bookmark may be due (see onBatch).
    quietBatchesFrom: () => (bookmarks && !stopped ? lastDelivery + bookmarkIntervalMs : Infinity),
  };
  try {
    storeWatch = (store.watch as (o: WatchOptions, h: (b: RevisionBatch) => void, e?: (s: Status) => void) => StoreWatch)(
      index ? { afterRevision: startRevision, prefix, index } : { afterRevision: startRevision, prefix },
      onBatch,
      onError,
    );
  } catch (err) {
    const status = toStatus(err);
    if (status.code !== 410) throw err;
    clock.defer(() => deliver([errorEvent(status)]), `watch ${watchId} expired`);
  }
  lastRevision = startRevision;

  return {
    stop,
    requestBookmark() {
      if (!bookmarks || stopped) return;
      // The revision is read when the bookmark goes out, so it never precedes an event already delivered. An
      // indexed watch also counts the revisions the store skipped for it.
      clock.defer(() => {
        const revision = Math.max(lastRevision, storeWatch?.progressRevision?.() ?? 0);
        deliver([bookmark(revision)], revision);
      }, `watch ${watchId} bookmark`);
    },
  };
}
