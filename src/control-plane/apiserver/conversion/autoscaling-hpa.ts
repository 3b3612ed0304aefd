// autoscaling/v1 ⇄ autoscaling/v2 HorizontalPodAutoscaler, as pkg/apis/autoscaling/v1/conversion.go does it:
// v1 only knows a CPU utilization target; every other v2 metric, the current metrics, the conditions and the
// behavior travel through annotations so a v2 object survives a round trip through v1.
import type { KubeObject } from '../../../shared/api/types';

const metricsAnnotation = 'autoscaling.alpha.kubernetes.io/metrics';
const currentMetricsAnnotation = 'autoscaling.alpha.kubernetes.io/current-metrics';
const conditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';
const behaviorAnnotation = 'autoscaling.alpha.kubernetes.io/behavior';
const carriedAnnotations = [metricsAnnotation, currentMetricsAnnotation, conditionsAnnotation, behaviorAnnotation];

type Json = Record<string, unknown>;

interface MetricSpec {
  type: string;
  resource?: { name: string; target: { type: string; averageUtilization?: number } };
  [k: string]: unknown;
}

interface MetricStatus {
  type: string;
  resource?: { name: string; current: { averageUtilization?: number } };
  [k: string]: unknown;
}

function isCpuUtilization(m: MetricSpec): boolean {
  return m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.type === 'Utilization';
}

function parseAnnotation<T>(annotations: Record<string, string>, key: string): T | undefined {
  const raw = annotations[key];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/** A v1 object (as decoded and defaulted at v1) → the v2 object that is stored. */
export function hpaV1ToV2(v1: KubeObject): KubeObject {
  const metadata = { ...v1.metadata };
  const annotations: Record<string, string> = { ...(metadata.annotations ?? {}) };
  const spec = (v1.spec ?? {}) as Json;
  const status = v1.status as Json | undefined;

  const metrics: MetricSpec[] = parseAnnotation<MetricSpec[]>(annotations, metricsAnnotation) ?? [];
  if (typeof spec.targetCPUUtilizationPercentage === 'number') {
    metrics.unshift({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } },
    });
  }
  const behavior = parseAnnotation<Json>(annotations, behaviorAnnotation);
  const currentMetrics: MetricStatus[] = parseAnnotation<MetricStatus[]>(annotations, currentMetricsAnnotation) ?? [];
  const conditions = parseAnnotation<Json[]>(annotations, conditionsAnnotation);
  for (const k of carriedAnnotations) delete annotations[k];
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;

  const v2Spec: Json = { scaleTargetRef: spec.scaleTargetRef, maxReplicas: spec.maxReplicas };
  if (spec.minReplicas !== undefined) v2Spec.minReplicas = spec.minReplicas;
  if (metrics.length) v2Spec.metrics = metrics;
  if (behavior) v2Spec.behavior = behavior;

  const out: KubeObject = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata, spec: v2Spec };
  if (status) {
    const v2Status: Json = {};
    for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas']) {
      if (status[k] !== undefined) v2Status[k] = status[k];
    }
    if (typeof status.currentCPUUtilizationPercentage === 'number') {
      currentMetrics.unshift({
        type: 'Resource',
        resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } },
      });
    }
    if (currentMetrics.length) v2Status.currentMetrics = currentMetrics;
    if (conditions) v2Status.conditions = conditions;
    out.status = v2Status;
  }
  return out;
}

/** The stored v2 object → what a v1 client reads. */
export function hpaV2ToV1(v2: KubeObject): KubeObject {
  const metadata = { ...v2.metadata };
  const annotations: Record<string, string> = { ...(metadata.annotations ?? {}) };
  const spec = (v2.spec ?? {}) as Json;
  const status = v2.status as Json | undefined;

  const v1Spec: Json = { scaleTargetRef: spec.scaleTargetRef, maxReplicas: spec.maxReplicas };
  if (spec.minReplicas !== undefined) v1Spec.minReplicas = spec.minReplicas;
  const metrics = (spec.metrics ?? []) as MetricSpec[];
  const others: MetricSpec[] = [];
  for (const m of metrics) {
    if (isCpuUtilization(m) && v1Spec.targetCPUUtilizationPercentage === undefined) {
      v1Spec.targetCPUUtilizationPercentage = m.resource!.target.averageUtilization;
    } else others.push(m);
  }
  if (others.length) annotations[metricsAnnotation] = JSON.stringify(others);
  if (spec.behavior) annotations[behaviorAnnotation] = JSON.stringify(spec.behavior);

  const out: KubeObject = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata, spec: v1Spec };
  if (status) {
    const v1Status: Json = {};
    for (const k of ['observedGeneration', 'lastScaleTime', 'currentReplicas', 'desiredReplicas']) {
      if (status[k] !== undefined) v1Status[k] = status[k];
    }
    const current = (status.currentMetrics ?? []) as MetricStatus[];
    const otherCurrent: MetricStatus[] = [];
    for (const m of current) {
      if (m.type === 'Resource' && m.resource?.name === 'cpu' && v1Status.currentCPUUtilizationPercentage === undefined && m.resource.current?.averageUtilization !== undefined) {
        v1Status.currentCPUUtilizationPercentage = m.resource.current.averageUtilization;
      } else otherCurrent.push(m);
    }
    if (otherCurrent.length) annotations[currentMetricsAnnotation] = JSON.stringify(otherCurrent);
    if (Array.isArray(status.conditions) && status.conditions.length) annotations[conditionsAnnotation] = JSON.stringify(status.conditions);
    if (v1Status.currentReplicas === undefined) v1Status.currentReplicas = 0;
    if (v1Status.desiredReplicas === undefined) v1Status.desiredReplicas = 0;
    out.status = v1Status;
  }
  if (Object.keys(annotations).length) metadata.annotations = annotations;
  else delete metadata.annotations;
  return out;
}
