// pkg/controller/podautoscaler/replica_calculator.go (Resource metrics, Utilization targets): the replica
// count that brings the pods' average utilization of their requests to the target.
//
//   4 ready pods at 250% of their cpu request, target 50% → ratio 5 → ceil(5 × 4) = 20 replicas
//   ratio within 1 ± 0.1 (tolerance) → stay at the current count
// Pods without a metric, not ready yet or being deleted are set aside and then counted conservatively: on a
// scale-up as using nothing, on a scale-down as using their whole request.
import type { Container, Pod } from 'kubernetes-types/core/v1';
import { parseTime } from '../shared/controller-utils';
import type { PodMetricsSample } from '../../metrics/metrics-server';
import { quantityValue } from '../../apiserver/registry/generic/quantity';

/** --horizontal-pod-autoscaler-tolerance */
export const defaultTolerance = 0.1;
/** --horizontal-pod-autoscaler-cpu-initialization-period */
export const cpuInitializationPeriodMs = 5 * 60_000;
/** --horizontal-pod-autoscaler-initial-readiness-delay */
export const delayOfInitialReadinessStatusMs = 30_000;

export interface PodMetric {
  timestamp: number;
  windowMs: number;
  /** millicores (cpu) or bytes (memory) */
  value: number;
}

export type PodMetricsInfo = Map<string, PodMetric>;

export class ReplicaCalculationError extends Error {}

/** metricsclient.getPodMetrics: a pod counts only when every container reported the resource. */
export function podMetricsInfo(samples: readonly PodMetricsSample[], resource: 'cpu' | 'memory', pods: ReadonlySet<string>): PodMetricsInfo {
  const out: PodMetricsInfo = new Map();
  for (const s of samples) {
    if (!pods.has(s.name) || s.containers.length === 0) continue;
    const value = s.containers.reduce((sum, c) => sum + (resource === 'cpu' ? c.cpuMillis : c.memoryBytes), 0);
    out.set(s.name, { timestamp: s.timestamp, windowMs: s.windowMs, value });
  }
  return out;
}

function requestOf(c: Container, resource: string): number | undefined {
  const raw = c.resources?.requests?.[resource];
  if (raw === undefined || raw === null) return undefined;
  const v = quantityValue(raw);
  if (v === undefined) return undefined;
  return resource === 'cpu' ? Math.round(v * 1000) : v;
}

/** calculatePodRequests: each pod's summed request (regular + sidecar containers); any missing one is an error. */
export function calculatePodRequests(pods: readonly Pod[], resource: string): Map<string, number> {
  const requests = new Map<string, number>();
  for (const pod of pods) {
    const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
    let sum = 0;
    for (const c of containers) {
      const r = requestOf(c, resource);
      if (r === undefined) throw new ReplicaCalculationError(`missing request for ${resource} in container ${c.name} of Pod ${pod.metadata?.name}`);
      sum += r;
    }
    requests.set(pod.metadata?.name ?? '', sum);
  }
  return requests;
}

export interface PodGroups {
  readyPodCount: number;
  unreadyPods: Set<string>;
  missingPods: Set<string>;
  ignoredPods: Set<string>;
}

/** groupPods */
export function groupPods(pods: readonly Pod[], metrics: PodMetricsInfo, resource: string, now: number): PodGroups {
  const g: PodGroups = { readyPodCount: 0, unreadyPods: new Set(), missingPods: new Set(), ignoredPods: new Set() };
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    if (pod.metadata?.deletionTimestamp || pod.status?.phase === 'Failed') {
      g.ignoredPods.add(name);
      continue;
    }
    if (pod.status?.phase === 'Pending') {
      g.unreadyPods.add(name);
      continue;
    }
    const metric = metrics.get(name);
    if (!metric) {
      g.missingPods.add(name);
      continue;
    }
    if (resource === 'cpu') {
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      const start = parseTime(pod.status?.startTime);
      let unready: boolean;
      if (!ready || start === undefined) {
        unready = true;
      } else {
        const transition = parseTime(ready.lastTransitionTime) ?? 0;
        if (start + cpuInitializationPeriodMs > now) {
          // Still initialising: ignore the sample unless a whole window was measured since it became ready.
          unready = ready.status === 'False' || metric.timestamp < transition + metric.windowMs;
        } else {
          // Unready and never been ready.
          unready = ready.status === 'False' && start + delayOfInitialReadinessStatusMs > transition;
        }
      }
      if (unready) {
        g.unreadyPods.add(name);
        continue;
      }
    }
    g.readyPodCount++;
  }
  return g;
}

/** metricsclient.GetResourceUtilizationRatio */
export function resourceUtilizationRatio(metrics: PodMetricsInfo, requests: Map<string, number>, targetUtilization: number): { ratio: number; utilization: number; rawAverage: number } {
  let metricsTotal = 0;
  let requestsTotal = 0;
  let n = 0;
  for (const [pod, m] of metrics) {
    const r = requests.get(pod);
    if (r === undefined) continue;
    metricsTotal += m.value;
    requestsTotal += r;
    n++;
  }
  if (requestsTotal === 0) throw new ReplicaCalculationError('no metrics returned matched known pods');
  const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
  return { ratio: utilization / targetUtilization, utilization, rawAverage: Math.trunc(metricsTotal / n) };
}

export interface ResourceReplicas {
  replicas: number;
  /** Average utilization, percent of request. */
  utilization: number;
  /** Average usage, millicores (cpu) or bytes. */
  rawUtilization: number;
  timestamp: number;
}

/** GetResourceReplicas: pods are those the target's selector matches; metrics are metrics-server's. */
export function getResourceReplicas(
  currentReplicas: number,
  targetUtilization: number,
  resource: 'cpu' | 'memory',
  pods: readonly Pod[],
  samples: readonly PodMetricsSample[],
  now: number,
  tolerance = defaultTolerance,
): ResourceReplicas {
  const podNames = new Set(pods.map((p) => p.metadata?.name ?? ''));
  const metrics = podMetricsInfo(samples, resource, podNames);
  if (metrics.size === 0) throw new ReplicaCalculationError(`unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`);
  const timestamp = Math.min(...[...metrics.values()].map((m) => m.timestamp));
  if (pods.length === 0) throw new ReplicaCalculationError('no pods returned by selector while calculating replica count');
  const { readyPodCount, unreadyPods, missingPods, ignoredPods } = groupPods(pods, metrics, resource, now);
  for (const p of ignoredPods) metrics.delete(p);
  for (const p of unreadyPods) metrics.delete(p);
  const requests = calculatePodRequests(pods, resource);
  if (metrics.size === 0) throw new ReplicaCalculationError('did not receive metrics for targeted pods (pods might be unready)');

  const { ratio, utilization, rawAverage } = resourceUtilizationRatio(metrics, requests, targetUtilization);
  const result = (replicas: number): ResourceReplicas => ({ replicas, utilization, rawUtilization: rawAverage, timestamp });
  const scaleUpWithUnready = unreadyPods.size > 0 && ratio > 1;
  if (!scaleUpWithUnready && missingPods.size === 0) {
    if (Math.abs(1 - ratio) <= tolerance) return result(currentReplicas);
    return result(Math.ceil(ratio * readyPodCount));
  }
  if (missingPods.size > 0) {
    if (ratio < 1) {
      // On a scale-down a missing pod counts as using its whole request (or the target, when above 100%).
      const fallback = Math.max(100, targetUtilization);
      for (const p of missingPods) metrics.set(p, { timestamp: 0, windowMs: 0, value: ((requests.get(p) ?? 0) * fallback) / 100 });
    } else if (ratio > 1) {
      for (const p of missingPods) metrics.set(p, { timestamp: 0, windowMs: 0, value: 0 });
    }
  }
  if (scaleUpWithUnready) for (const p of unreadyPods) metrics.set(p, { timestamp: 0, windowMs: 0, value: 0 });

  const newRatio = resourceUtilizationRatio(metrics, requests, targetUtilization).ratio;
  if (Math.abs(1 - newRatio) <= tolerance || (ratio < 1 && newRatio > 1) || (ratio > 1 && newRatio < 1)) return result(currentReplicas);
  const newReplicas = Math.ceil(newRatio * metrics.size);
  if ((newRatio < 1 && newReplicas > currentReplicas) || (newRatio > 1 && newReplicas < currentReplicas)) return result(currentReplicas);
  return result(newReplicas);
}
