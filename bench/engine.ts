// Benchmarks 1 and 2: engine throughput and scaling. One case = N nodes, then one Deployment of P replicas
// brought to all-available on fast-forwarded virtual time (scheduler_perf's SchedulingBasic shape, with every
// controller and kubelet running too), after an untimed warm-up rollout. Each case runs in its own process so heap figures are its own.
import { heapUsedAfterGc } from './lib/heap';
import { bootBenchCluster, rolloutDeployment, warmUp } from './lib/kubeplay';

export interface EngineSize {
  nodes: number;
  pods: number;
}

export interface EngineCaseResult extends EngineSize {
  wallMs: number;
  cpuMs: number;
  virtualMs: number;
  revisions: number;
  podsPerSecond: number;
  /** Wall ms per pod. */
  msPerPod: number;
  bootWallMs: number;
  /**
   * Heap after gc with the booted cluster, then with every pod running (bytes); undefined without --expose-gc.
   * (after - boot) / pods also counts the bounded buffers filling up during the rollout — the store's history
   * (10,000 revisions), the trace ring (10,000 events: already full after a 100-node boot, not after a 3-node one),
   * the scheduler's decision records — so at small P it overstates what one more pod costs. The marginal cost
   * once they are full is what bench/heap-breakdown.ts prints as "P → 2P", owner by owner.
   */
  heapBootBytes?: number;
  heapAfterBytes?: number;
}

export function parseEngineSizes(spec: string): EngineSize[] {
  return spec.split(',').map((s) => {
    const m = /^(\d+)x(\d+)$/.exec(s.trim());
    if (!m) throw new Error(`engine size "${s}": want <nodes>x<pods>, e.g. 100x1000`);
    return { nodes: Number(m[1]), pods: Number(m[2]) };
  });
}

export const sizeKey = (s: EngineSize): string => `${s.nodes}x${s.pods}`;

export async function runEngineCase(size: EngineSize): Promise<EngineCaseResult> {
  await warmUp();
  const b0 = performance.now();
  const cluster = await bootBenchCluster(size.nodes);
  const bootWallMs = performance.now() - b0;
  const heapBootBytes = heapUsedAfterGc();
  const r = rolloutDeployment(cluster, size.pods);
  const heapAfterBytes = heapUsedAfterGc();
  await cluster.close();
  return {
    ...size,
    wallMs: r.wallMs,
    cpuMs: r.cpuMs,
    virtualMs: r.virtualMs,
    revisions: r.revisions,
    podsPerSecond: size.pods / (r.wallMs / 1000),
    msPerPod: r.wallMs / size.pods,
    bootWallMs,
    heapBootBytes,
    heapAfterBytes,
  };
}
