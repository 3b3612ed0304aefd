// Boots a kubeplay cluster for a benchmark and brings a Deployment to all-available on virtual time, timing only
// the rollout. The cluster is the real one (createCluster): every controller, the scheduler and the kubelets run,
// the trace bus records as in the worker; there is no persistence (the worker's write-behind is benchmark 4).
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { createCluster, type Cluster } from '../../src/control-plane/cluster';
import { defaultNodeConfigs } from '../../src/control-plane/kubelet/node-config';
import { noPlaygroundLimits } from '../../src/control-plane/config/playground-limits';
import { isPodReady, rolloutComplete } from '../../src/control-plane/scenarios/harness';
import { benchDeployment } from './workload';

/** A cluster of `nodes` default nodes, all registered and Ready, with the default ServiceAccount in place. */
export async function bootBenchCluster(nodes: number): Promise<Cluster> {
  const cluster = await createCluster({ seed: 1, nodes: defaultNodeConfigs(nodes), limits: noPlaygroundLimits });
  // Heartbeats are background timers: idle means every kubelet registered and the controllers settled.
  // (A predicate listing every node after each timer would cost O(nodes²) at 5,000 nodes.)
  cluster.runUntilIdle({ maxTimeMs: 120_000 });
  const ready = cluster.client.nodes.list().items.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length;
  if (ready !== nodes) throw new Error(`only ${ready} of ${nodes} nodes Ready after boot`);
  cluster.runUntil(() => cluster.store.get('/registry/core/serviceaccounts/default/default') !== undefined, 60_000);
  return cluster;
}

export interface RolloutResult {
  wallMs: number;
  /** This process's CPU time (user + system) over the rollout: less sensitive to a loaded machine than wall. */
  cpuMs: number;
  virtualMs: number;
  /** Store revisions the rollout took (writes through the API server). */
  revisions: number;
  podsRunningReady: number;
}

/**
 * Applies a Deployment of `replicas` and runs the clock until it reports every replica available (what
 * `kubectl rollout status` waits for). The predicate reads the Deployment straight from the store: O(1) per
 * timer, so the benchmark does not measure itself. Every pod is then checked Running and Ready (untimed).
 */
export function rolloutDeployment(cluster: Cluster, replicas: number, maxVirtualMs = 2 * 60 * 60_000): RolloutResult {
  const key = '/registry/apps/deployments/default/bench';
  const rev0 = cluster.store.revision;
  const v0 = cluster.clock.now();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  cluster.client.deployments.create(benchDeployment(replicas), { namespace: 'default' });
  const done = cluster.runUntil(() => rolloutComplete(cluster.store.get(key)?.value as Deployment | undefined), maxVirtualMs);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  if (!done) {
    const d = cluster.store.get(key)?.value as Deployment | undefined;
    throw new Error(`rollout of ${replicas} replicas not complete after ${maxVirtualMs} ms virtual: status ${JSON.stringify(d?.status)}`);
  }
  const pods = cluster.client.pods.list({ namespace: 'default', labelSelector: 'app=bench' }).items as Pod[];
  const podsRunningReady = pods.filter((p) => p.status?.phase === 'Running' && isPodReady(p)).length;
  if (podsRunningReady !== replicas) throw new Error(`${podsRunningReady} of ${replicas} pods Running and Ready`);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, virtualMs: cluster.clock.now() - v0, revisions: cluster.store.revision - rev0, podsRunningReady };
}

/**
 * An untimed 30-replica rollout on a throwaway 3-node cluster, so the timed run measures compiled code rather
 * than the JIT's first pass over every module (and tsx's lazy module loads).
 */
export async function warmUp(): Promise<void> {
  const cluster = await bootBenchCluster(3);
  rolloutDeployment(cluster, 30);
  await cluster.close();
}
