// Keeps the objects slice in step with the cluster: one list+watch subscription per listable resource type,
// each batch handed to the slice's single writer, and the simulated clock polled for the header.
import type { ResourceType } from '../../shared/api/resources';
import type { ProtocolClient, WatchHandlers } from '../../shared/protocol/client';
import type { WatchBatch } from '../../shared/protocol/messages';
import type { AppStore } from '../state/store';
import type { KeyedBatch } from '../state/objects-slice';
import { resourceKey } from '../state/objects-slice';
import type { ObjectHistory } from '../state/object-history';
import { objectHistory } from '../state/object-history';

/**
 * events.k8s.io/v1 Events are the core v1 Events served at another version; watching both would list every
 * Event twice.
 */
function isDuplicateView(rt: ResourceType): boolean {
  return rt.group === 'events.k8s.io' && rt.resource === 'events';
}

export function watchableResources(resources: readonly ResourceType[]): ResourceType[] {
  return resources.filter((rt) => rt.verbs.includes('list') && rt.verbs.includes('watch') && !isDuplicateView(rt));
}

function nextFrame(fn: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => fn());
  else setTimeout(fn, 0);
}

export interface BatchApplier {
  /** Queues a batch; it is applied on the next frame, with every other batch that arrived before it. */
  push(resourceKey: string, batch: WatchBatch): void;
  /** Applies what is queued now. */
  flush(): void;
}

/**
 * Collects the batches of every subscription that arrive between two frames and applies them in one store
 * update at the start of the next frame: one React render per frame instead of one per message, and it runs
 * before the batches are acknowledged (the protocol client acks on the same frame, after this).
 */
export function createBatchApplier(store: AppStore, scheduleFrame: (fn: () => void) => void = nextFrame, history: ObjectHistory = objectHistory): BatchApplier {
  let queue: KeyedBatch[] = [];
  const flush = () => {
    if (queue.length === 0) return;
    const batches = queue;
    queue = [];
    store.getState().applyBatches(batches, (item, before) => history.record(item.resourceKey, item.batch, before));
  };
  return {
    push(key, batch) {
      if (queue.length === 0) scheduleFrame(flush);
      queue.push({ resourceKey: key, batch });
    },
    flush,
  };
}

/** Subscribes to every watchable resource; returns a function that unsubscribes them all. */
export async function syncObjects(client: ProtocolClient, store: AppStore, onError: (message: string) => void, applier: BatchApplier = createBatchApplier(store)): Promise<() => void> {
  const { resources } = await client.call('api/discovery');
  const stops = watchableResources(resources).map((rt) =>
    watchInSequence(client, { verb: 'watch', group: rt.group, version: rt.version, resource: rt.resource }, {
      onBatch: (batch) => applier.push(resourceKey(rt.group, rt.resource), batch),
      onError: (status) => onError(`Watching ${rt.resource} stopped: ${status.message}`),
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
}

/**
 * client.watch, passing on each batch once and in order by its seq: a duplicate (seq already seen) is dropped;
 * a gap (a batch lost, or one overtaken) means the deltas no longer add up, so the subscription is replaced by
 * a new one, whose first batch is a full list that replaces what the page held (a reflector's relist).
 * Returns unsubscribe.
 */
export function watchInSequence(client: ProtocolClient, request: Parameters<ProtocolClient['watch']>[0], handlers: WatchHandlers): () => void {
  let stop: () => void = () => {};
  let stopped = false;
  const subscribe = (): void => {
    let expected = 1;
    stop = client.watch(request, {
      onBatch: (batch) => {
        if (batch.seq === undefined) return handlers.onBatch(batch); // a worker that does not number them
        if (batch.seq < expected) return;
        if (batch.seq > expected) {
          stop();
          if (!stopped) subscribe();
          return;
        }
        expected++;
        handlers.onBatch(batch);
      },
      onError: (status) => handlers.onError?.(status),
    });
  };
  subscribe();
  return () => {
    stopped = true;
    stop();
  };
}

/** Polls the simulation state (time, paused, speed) for the header; returns a stop function. */
export function pollSim(client: ProtocolClient, store: AppStore, intervalMs = 250): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    try {
      store.getState().setSim(await client.call('sim/state'));
    } catch {
      // The worker is gone or resetting; the next poll will tell.
    }
    if (!stopped) timer = setTimeout(poll, intervalMs);
  };
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Polls the components' state ('sim/components') for the Control plane view, only while that view is shown;
 * a failure (an older worker, a reset) leaves the components unknown until an answer comes. Returns a stop function.
 */
export function pollComponents(client: ProtocolClient, store: AppStore, intervalMs = 250): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const poll = async () => {
    if (store.getState().view === 'control-plane') {
      try {
        store.getState().setComponents(await client.call('sim/components'));
      } catch (err) {
        store.getState().componentsUnavailable(err instanceof Error ? err.message : String(err));
      }
    }
    if (!stopped) timer = setTimeout(poll, intervalMs);
  };
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
