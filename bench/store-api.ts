// Benchmark 3: the store and the API server. A bare API server (no controllers, scheduler or kubelets), requests
// through the whole pipeline (authn, RBAC, admission, validation, the MVCC store) from the in-process client.
//  - writes/s: ConfigMap creates with two API watchers on the namespace, deliveries drained every 100 writes
//    (the drain is inside the timing: a write is done when both watchers have it);
//  - watch delivery latency: one create at a time, wall time from the create's return to each watcher's callback
//    (delivery goes through the clock's defer queue, so virtual latency is 0 ms by design);
//  - LIST of P pods in one namespace: wall ms per list (median of 5), the objects created beforehand.
import type { ConfigMap, Pod } from 'kubernetes-types/core/v1';
import { createCluster, type Cluster } from '../src/control-plane/cluster';
import type { WatchEvent } from '../src/shared/api/types';
import { benchImage } from './lib/workload';

export interface StoreSize {
  writes: number;
  latencySamples: number;
  listPods: number;
}

export interface StoreResult extends StoreSize {
  writesPerSecond: number;
  deliveredPerWatcher: number[];
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyVirtualMaxMs: number;
  podCreatesPerSecond: number;
  listMedianMs: number;
  listItems: number;
}

/** "10000" (every count) or "writes:latency:list", e.g. "2000:500:1000". */
export function parseStoreSize(spec: string): StoreSize {
  const parts = spec.split(':').map((s) => Number(s.trim()));
  if (parts.some((n) => !Number.isInteger(n) || n <= 0) || (parts.length !== 1 && parts.length !== 3)) {
    throw new Error(`store size "${spec}": want <count> or <writes>:<latencySamples>:<listPods>`);
  }
  const [w, l = Math.min(1000, w), p = w] = parts;
  return { writes: w, latencySamples: l, listPods: p };
}

async function bareCluster(): Promise<Cluster> {
  const cluster = await createCluster({ seed: 1, nodes: 0, controllers: false, scheduler: false });
  // No serviceaccount controller here: the ServiceAccount admission plugin needs "default" to exist for pods.
  cluster.client.serviceAccounts.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } }, { namespace: 'default' });
  cluster.clock.runDeferred();
  return cluster;
}

function configMap(name: string): ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { bench: 'store' } }, data: { key: name } };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function runStoreCase(size: StoreSize): Promise<StoreResult> {
  const cluster = await bareCluster();
  const cms = cluster.client.configMaps;

  // Writes per second with two watchers.
  const delivered = [0, 0];
  const rv = String(cluster.store.revision);
  const watchers = delivered.map((_, i) =>
    cms.watch({ namespace: 'default', resourceVersion: rv }, (events: WatchEvent[]) => {
      delivered[i] += events.length;
    }),
  );
  const t0 = performance.now();
  for (let i = 0; i < size.writes; i++) {
    cms.create(configMap(`w-${i}`), { namespace: 'default' });
    if (i % 100 === 99) cluster.clock.runDeferred();
  }
  cluster.clock.runDeferred();
  const writesWall = performance.now() - t0;
  if (delivered.some((d) => d !== size.writes)) throw new Error(`watchers got ${delivered.join('/')} of ${size.writes} events`);
  for (const w of watchers) w.stop();
  cluster.clock.runDeferred();

  // Watch delivery latency, one write at a time.
  const latencies: number[] = [];
  let virtualMax = 0;
  let writtenAt = 0;
  let virtualAt = 0;
  const rv2 = String(cluster.store.revision);
  const latencyWatchers = [0, 1].map(() =>
    cms.watch({ namespace: 'default', resourceVersion: rv2 }, () => {
      latencies.push(performance.now() - writtenAt);
      virtualMax = Math.max(virtualMax, cluster.clock.now() - virtualAt);
    }),
  );
  for (let i = 0; i < size.latencySamples; i++) {
    cms.create(configMap(`l-${i}`), { namespace: 'default' });
    writtenAt = performance.now();
    virtualAt = cluster.clock.now();
    cluster.clock.runDeferred();
  }
  for (const w of latencyWatchers) w.stop();
  if (latencies.length !== 2 * size.latencySamples) throw new Error(`latency watchers got ${latencies.length} of ${2 * size.latencySamples} events`);
  latencies.sort((a, b) => a - b);

  // LIST of P pods (Pending: no scheduler), in their own namespace-wide list.
  const p0 = performance.now();
  for (let i = 0; i < size.listPods; i++) {
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i}`, namespace: 'default', labels: { app: 'list' } }, spec: { containers: [{ name: 'pause', image: benchImage }] } };
    cluster.client.pods.create(pod, { namespace: 'default' });
    if (i % 100 === 99) cluster.clock.runDeferred();
  }
  cluster.clock.runDeferred();
  const podCreatesWall = performance.now() - p0;
  const listTimes: number[] = [];
  let listItems = 0;
  for (let i = 0; i < 5; i++) {
    const l0 = performance.now();
    listItems = cluster.client.pods.list({ namespace: 'default' }).items.length;
    listTimes.push(performance.now() - l0);
  }
  if (listItems !== size.listPods) throw new Error(`LIST returned ${listItems} of ${size.listPods} pods`);
  listTimes.sort((a, b) => a - b);
  await cluster.close();

  return {
    ...size,
    writesPerSecond: size.writes / (writesWall / 1000),
    deliveredPerWatcher: delivered,
    latencyP50Ms: percentile(latencies, 50),
    latencyP99Ms: percentile(latencies, 99),
    latencyVirtualMaxMs: virtualMax,
    podCreatesPerSecond: size.listPods / (podCreatesWall / 1000),
    listMedianMs: listTimes[2],
    listItems,
  };
}
