/// <reference lib="webworker" />
// The module worker the page starts: restores the cluster from IndexedDB (or boots a fresh one), drives its
// virtual clock from real time, and serves the protocol on the worker's own message port.
import type { Cluster } from '../control-plane/cluster';
import { createCluster } from '../control-plane/cluster';
import { RealtimeDriver } from '../control-plane/sim/realtime-driver';
import type { RealtimeHost } from '../control-plane/sim/realtime-driver';
import { IndexedDbPersistence } from '../control-plane/store/persistence/indexeddb-persistence';
import { newServiceUnavailable } from '../shared/api/status';
import type { PortLike } from '../shared/protocol/messages';
import type { ClusterSession } from './serve';
import { serveProtocol, serveUnavailable } from './serve';

declare const self: DedicatedWorkerGlobalScope;

const port = self as unknown as PortLike;

const host: RealtimeHost = {
  now: () => performance.now(),
  schedule(fn, ms) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

interface Session extends ClusterSession<Cluster> {
  close(): Promise<void>;
}

/** Restores (or creates) the cluster over IndexedDB; without IndexedDB it runs in memory and says so. */
async function openCluster(): Promise<{ cluster: Cluster; persistence?: IndexedDbPersistence }> {
  let persistence: IndexedDbPersistence | undefined;
  try {
    persistence = new IndexedDbPersistence({
      onClose: (reason) => console.warn(`kubeplay: IndexedDB connection closed (${reason}); reload the page to keep saving`),
    });
    return { cluster: await createCluster({ persistence, startTime: freshStartTime() }), persistence };
  } catch (err) {
    persistence?.close();
    console.warn('kubeplay: IndexedDB is unavailable; this cluster lives in memory only and a reload loses it', err);
    return { cluster: await createCluster({ startTime: freshStartTime() }) };
  }
}

/** A new cluster's virtual clock starts at the wall-clock second it was created; a restored one resumes its own. */
function freshStartTime(): number {
  return Math.floor(Date.now() / 1000) * 1000;
}

async function boot(options: { speed?: number; paused?: boolean } = {}): Promise<Session> {
  const { cluster, persistence } = await openCluster();
  const driver = new RealtimeDriver({
    clock: cluster.clock,
    host,
    speed: options.speed,
    onError: (err) => console.error('kubeplay: a simulated component failed', err),
  });
  if (!options.paused) driver.resume();
  return {
    cluster,
    driver,
    persistenceKind: persistence ? 'indexeddb' : 'none',
    async close() {
      driver.dispose();
      await cluster.close();
      persistence?.close();
    },
  };
}

async function main(): Promise<void> {
  let current = await boot();
  serveProtocol(current.cluster, port, {
    driver: current.driver,
    persistenceKind: current.persistenceKind,
    // Pausing freezes virtual time, not zero-time work: a request's watch events still reach the page.
    afterRequest: (cluster) => cluster.clock.runDeferred(),
    async reset() {
      const { mode, speed } = current.driver!.state();
      const persisted = current.persistenceKind === 'indexeddb';
      await current.close();
      if (persisted) {
        // A fresh connection wipes the database; the old one is closed and its pending writes dropped.
        const wipe = new IndexedDbPersistence();
        await wipe.clear();
        wipe.close();
      }
      current = await boot({ speed, paused: mode === 'paused' });
      return current;
    },
  });
}

main().catch((err: unknown) => {
  console.error('kubeplay: the cluster could not start', err);
  serveUnavailable(port, newServiceUnavailable(`the cluster could not start: ${err instanceof Error ? err.message : String(err)}`).status);
});
