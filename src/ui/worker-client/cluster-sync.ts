// Keeps the objects slice in step with the cluster: one list+watch subscription per listable resource type,
// each batch handed to the slice's single writer, and the simulated clock polled for the header.
import type { ResourceType } from '../../shared/api/resources';
import type { ProtocolClient } from '../../shared/protocol/client';
import type { AppStore } from '../state/store';
import { resourceKey } from '../state/objects-slice';
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

/** Subscribes to every watchable resource; returns a function that unsubscribes them all. */
export async function syncObjects(client: ProtocolClient, store: AppStore, onError: (message: string) => void): Promise<() => void> {
  const { resources } = await client.call('api/discovery');
  const stops = watchableResources(resources).map((rt) =>
    client.watch(
      { verb: 'watch', group: rt.group, version: rt.version, resource: rt.resource },
      {
        onBatch: (batch) => {
          const key = resourceKey(rt.group, rt.resource);
          objectHistory.record(key, batch, store.getState().resources[key]?.objects);
          store.getState().applyBatch(key, batch);
        },
        onError: (status) => onError(`Watching ${rt.resource} stopped: ${status.message}`),
      },
    ),
  );
  return () => {
    for (const stop of stops) stop();
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
