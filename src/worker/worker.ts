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
import type { ClusterSession, ProtocolServer, ServeOptions } from './serve';
import { serveProtocol, serveUnavailable } from './serve';
import { IdbCloseReason } from '../control-plane/store/persistence/indexeddb-persistence';
import { isQuotaExceeded } from '../control-plane/store/persistence/storage-errors';
import { StorageAlarm } from '../shared/protocol/storage';
import { StorageHealth, gateWrites } from './storage-health';

declare const self: DedicatedWorkerGlobalScope;

const port = self as unknown as PortLike;

/**
 * The simulation's first ticks after the worker starts wait until the page has every list it watches (serve's
 * onSynced; at most FIRST_SYNC_HOLD_MS after serving began): a restored cluster's first tick is its components
 * catching up (informers listing every object), a task of 150+ ms that would otherwise stall the delivery of the
 * page's lists. Held ticks lose no virtual time: the driver counts the real time elapsed since it resumed (up to
 * its 1 s cap, above the hold). Only a cluster restored with many objects is held: a new one's first tick is
 * short, and holding it would only delay its nodes.
 */
const FIRST_SYNC_HOLD_MS = 900;
const FIRST_SYNC_HOLD_MIN_OBJECTS = 1_000;
interface HeldTick {
  fn: () => void;
  ms: number;
  cancel?: () => void;
}
let held: Set<HeldTick> | undefined = new Set();

function releaseHeldTicks(): void {
  const ticks = held;
  held = undefined;
  for (const t of ticks ?? []) t.cancel = schedule(t.fn, t.ms);
}

function schedule(fn: () => void, ms: number): () => void {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
}

const host: RealtimeHost = {
  now: () => performance.now(),
  schedule(fn, ms) {
    if (!held) return schedule(fn, ms);
    const tick: HeldTick = { fn, ms };
    held.add(tick);
    return () => {
      held?.delete(tick);
      tick.cancel?.();
    };
  },
};

interface Session extends ClusterSession<Cluster> {
  close(): Promise<void>;
  /** Drops what is not saved yet (as a crash would) and stops the cluster. */
  abandon(): Promise<void>;
}

const ignore = (): void => {};

/** Full disk (etcd NOSPACE) and a database cleared under the page; outlives the sessions it watches. */
const health = new StorageHealth();
/** Set by main(): rolls the cluster back to its saved state after a write the disk refused. */
let onNoSpace: () => void = ignore;
/** Set by main(): stops serving once the database is another's (a newer version opened it, or a newer leader fenced this one). */
let onStorageLost: (reason: IdbCloseReason) => void = ignore;
/** The epoch this worker's leader claimed (a reset's wipe is fenced on it too). */
let leaderEpoch: number | undefined;

interface OpenOptions {
  /** After a rollback: continue the revisions after this one (see IndexedDbPersistenceOptions.minRevision). */
  minRevision?: number;
  /** After a rollback: this worker is still the leader; claiming again would be a write the full disk refuses. */
  keepEpoch?: boolean;
}

/** Restores (or creates) the cluster over IndexedDB; without IndexedDB it runs in memory and says so. */
async function openCluster(options: OpenOptions = {}): Promise<{ cluster: Cluster; persistence?: IndexedDbPersistence }> {
  let persistence: IndexedDbPersistence | undefined;
  try {
    persistence = new IndexedDbPersistence({
      minRevision: options.minRevision,
      leaderEpoch: options.keepEpoch ? leaderEpoch : undefined,
      onClose: (reason) => {
        console.warn(`kubeplay: IndexedDB connection closed (${reason}); reload the page to keep saving`);
        if (reason === IdbCloseReason.Terminated) health.raise(StorageAlarm.Cleared);
        if (reason === IdbCloseReason.VersionChange || reason === IdbCloseReason.Fenced) onStorageLost(reason);
      },
      onWriteError: (err) => {
        if (isQuotaExceeded(err)) onNoSpace();
      },
    });
    // Only the leader tab starts this worker (src/ui/worker-client/leader-election.ts): fence every write on a new
    // epoch before reading, so what an older leader managed to commit is all there is.
    if (!options.keepEpoch || leaderEpoch === undefined) leaderEpoch = await persistence.claimLeadership();
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

async function boot(options: { speed?: number; paused?: boolean } & OpenOptions = {}): Promise<Session> {
  const { cluster, persistence } = await openCluster(options);
  gateWrites(cluster.apiserver, health);
  /** A write cycle that lands after this proves there is room again. */
  const loadedRevision = persistence?.durableRevision ?? 0;
  const status = () => {
    if (health.readOnly && persistence && persistence.durableRevision > loadedRevision) health.saved();
    return health.status();
  };
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
    storage: {
      status,
      async retry() {
        try {
          await cluster.flush();
          health.saved();
        } catch {
          // still no room: the alarm stays
        }
        return status();
      },
    },
    async close() {
      driver.dispose();
      await cluster.close();
      persistence?.close();
    },
    async abandon() {
      driver.dispose();
      persistence?.close();
      await cluster.close().catch(ignore);
    },
  };
}

async function main(): Promise<void> {
  let current = await boot();
  const serveOptions = (): ServeOptions<Cluster> => ({
    driver: current.driver,
    persistenceKind: current.persistenceKind,
    storage: current.storage,
    // Pausing freezes virtual time, not zero-time work: a request's watch events still reach the page.
    afterRequest: (cluster) => cluster.clock.runDeferred(),
    // A reload's lists (10,000 ConfigMaps are ~10 MB) in frames of ~1 MB instead of 90 KB: ten times fewer
    // acknowledged round trips, while the page's per-frame work for a list part stays a few ms.
    syncFrameBytes: 1_000_000,
    onSynced: releaseHeldTicks,
    async reset() {
      const { mode, speed } = current.driver!.state();
      const persisted = current.persistenceKind === 'indexeddb';
      await current.close();
      if (persisted) {
        // A fresh connection wipes the database; the old one is closed and its pending writes dropped.
        const wipe = new IndexedDbPersistence({ leaderEpoch });
        await wipe.clear();
        wipe.close();
      }
      health.reset();
      current = await boot({ speed, paused: mode === 'paused' });
      return current;
    },
  });
  let server: ProtocolServer<Cluster> = serveProtocol(current.cluster, port, serveOptions());
  if (current.cluster.store.count('') < FIRST_SYNC_HOLD_MIN_OBJECTS) releaseHeldTicks();
  else setTimeout(releaseHeldTicks, FIRST_SYNC_HOLD_MS);
  onStorageLost = (reason) => {
    // No more writes from here; the page tears this worker down and asks for a reload.
    server.close();
    current.driver?.pause();
    // Outside the protocol union (the page's tab mux picks it out: src/ui/worker-client/tab-role.ts).
    port.postMessage({ type: 'control-plane/lost', reason });
  };

  // The disk refused a write the store had already committed in memory. etcd would have refused it before
  // applying it; to match, the cluster reopens from its last saved revision (the refused writes are gone, the
  // request that made them got etcd's NOSPACE error) and stays read-only until a save succeeds. Its revisions
  // continue after every one handed out, and the page relists when the new server says ready.
  let rollingBack = false;
  /** The revision the last rollback continued after: a failure with no commit since (a meta-only save) undoes nothing. */
  let rolledBackTo = -1;
  onNoSpace = () => {
    health.raise(StorageAlarm.NoSpace);
    if (rollingBack || current.cluster.store.revision <= rolledBackTo) return;
    rollingBack = true;
    // A macrotask later: the replies of the failed requests (etcd's error) are posted first.
    setTimeout(() => {
      void (async () => {
        const { mode, speed } = current.driver!.state();
        const floor = current.cluster.store.revision;
        rolledBackTo = floor;
        server.close();
        await current.abandon();
        current = await boot({ speed, paused: mode === 'paused', minRevision: floor, keepEpoch: true });
        server = serveProtocol(current.cluster, port, serveOptions());
      })()
        .catch((err: unknown) => {
          console.error('kubeplay: the cluster could not reopen after a full disk', err);
          serveUnavailable(port, newServiceUnavailable(`the cluster could not reopen: ${err instanceof Error ? err.message : String(err)}`).status);
        })
        .finally(() => {
          rollingBack = false;
        });
    }, 0);
  };
}

main().catch((err: unknown) => {
  console.error('kubeplay: the cluster could not start', err);
  serveUnavailable(port, newServiceUnavailable(`the cluster could not start: ${err instanceof Error ? err.message : String(err)}`).status);
});
