// kube-controller-manager's horizontal pod autoscaler (pkg/controller/podautoscaler/horizontal.go): every sync
// period each HPA reads its target's scale subresource, asks the replica calculator for the count each metric
// wants (the highest wins), stabilizes and rate-limits it, writes the new count through /scale, and reports
// status.currentMetrics and the AbleToScale / ScalingActive / ScalingLimited conditions.
//
//   php-apache at 1 replica, cpu 250% of request, target 50% → wants 5 → limit max(2×1, 4) = 4
//   → PUT deployments/php-apache/scale replicas 4, event SuccessfulRescale "New size: 4; reason: cpu resource
//     utilization (percentage of request) above target", ScalingLimited True ScaleUpLimit
// A drop in load lowers the recommendation, but the highest one of the last 5 minutes is applied (downscale
// stabilization), so the count falls only once the load has stayed low that long.
import type { HorizontalPodAutoscaler, HorizontalPodAutoscalerCondition, HPAScalingRules, MetricSpec, MetricStatus } from 'kubernetes-types/autoscaling/v2';
import type { Pod } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import { parseApiVersion } from '../../../shared/api/types';
import { parseSelector, type Selector } from '../../../shared/lib/labels';
import { newMilliQuantity, quantityToString } from '../../../shared/lib/quantity';
import type { ResourceRegistry } from '../../../shared/api/resources';
import type { TraceSink } from '../../../shared/protocol/trace';
import type { Client, Typed } from '../../client/client';
import { EventRecorder, EventType } from '../../client/record/event-recorder';
import type { SharedInformerFactory } from '../../informers/factory';
import { metaNamespaceKeyFunc, splitMetaNamespaceKey } from '../../informers/keys';
import type { Lister, SharedInformer } from '../../informers/shared-informer';
import type { ResourceMetricsSource } from '../../metrics/metrics-server';
import { rfc3339, type Clock } from '../../sim/clock';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { BaseController } from '../shared/controller';
import { quantityValue } from '../../apiserver/registry/generic/quantity';
import { getResourceReplicas, groupPods, podMetricsInfo, ReplicaCalculationError, defaultTolerance } from './replica-calculator';
import './config';

export const HorizontalPodAutoscalerControllerName = 'horizontal-pod-autoscaler-controller';
/** The events' source component. */
export const HorizontalPodAutoscalerComponent = 'horizontal-pod-autoscaler';
export const defaultSyncPeriodMs = 15_000;
export const defaultDownscaleStabilizationMs = 5 * 60_000;
/** The scale-up rate without spec.behavior: at most double, or 4 replicas, per sync. */
const scaleUpLimitFactor = 2;
const scaleUpLimitMinimum = 4;

type HPA = Typed<HorizontalPodAutoscaler>;
type Scale = { spec?: { replicas?: number }; status?: { replicas?: number; selector?: string } };

interface TimestampedRecommendation {
  recommendation: number;
  timestamp: number;
}
interface TimestampedScaleEvent {
  replicaChange: number;
  timestamp: number;
  outdated: boolean;
}

export interface HorizontalControllerOptions {
  client: Client;
  informers: SharedInformerFactory;
  clock: Clock;
  registry: ResourceRegistry;
  trace?: TraceSink;
  metrics?: ResourceMetricsSource;
  syncPeriodMs?: number;
  downscaleStabilizationMs?: number;
  tolerance?: number;
}

class MetricError extends Error {
  constructor(
    message: string,
    readonly condition: { reason: string; message: string },
  ) {
    super(message);
  }
}

/** setCondition: a condition keeps its lastTransitionTime while its status stays. */
export function setCondition(hpa: HorizontalPodAutoscaler, type: string, status: 'True' | 'False', reason: string, message: string, now: number): void {
  const st = (hpa.status ??= { desiredReplicas: 0 });
  const conditions = (st.conditions ??= []);
  const existing = conditions.find((c) => c.type === type);
  if (existing) {
    if (existing.status !== status) existing.lastTransitionTime = rfc3339(now);
    existing.status = status;
    existing.reason = reason;
    existing.message = message;
    return;
  }
  conditions.push({ type, status, lastTransitionTime: rfc3339(now), reason, message } as HorizontalPodAutoscalerCondition);
}

export class HorizontalController {
  readonly controller: BaseController;
  private readonly client: Client;
  private readonly clock: Clock;
  private readonly registry: ResourceRegistry;
  private readonly metrics?: ResourceMetricsSource;
  private readonly recorder: EventRecorder;
  private readonly hpaInformer: SharedInformer<HorizontalPodAutoscaler>;
  private readonly hpaLister: Lister<HPA>;
  private readonly podInformer: SharedInformer<Pod>;
  private readonly podLister: Lister<Typed<Pod>>;
  private readonly registrations: { remove(): void }[];
  private readonly syncPeriodMs: number;
  private readonly downscaleStabilizationMs: number;
  private readonly tolerance: number;
  private readonly recommendations = new Map<string, TimestampedRecommendation[]>();
  private readonly scaleUpEvents = new Map<string, TimestampedScaleEvent[]>();
  private readonly scaleDownEvents = new Map<string, TimestampedScaleEvent[]>();

  constructor(options: HorizontalControllerOptions) {
    this.client = options.client;
    this.clock = options.clock;
    this.registry = options.registry;
    this.metrics = options.metrics;
    this.syncPeriodMs = options.syncPeriodMs ?? defaultSyncPeriodMs;
    this.downscaleStabilizationMs = options.downscaleStabilizationMs ?? defaultDownscaleStabilizationMs;
    this.tolerance = options.tolerance ?? defaultTolerance;
    this.recorder = new EventRecorder({ client: options.client, clock: options.clock, source: { component: HorizontalPodAutoscalerComponent } });
    this.hpaInformer = options.informers.horizontalPodAutoscalers;
    this.hpaLister = this.hpaInformer.lister as Lister<HPA>;
    this.podInformer = options.informers.pods;
    this.podLister = this.podInformer.lister as Lister<Typed<Pod>>;
    const queue = new RateLimitingQueue<string>({ name: 'horizontalpodautoscaler', clock: options.clock, trace: options.trace });
    this.controller = new BaseController({
      name: HorizontalPodAutoscalerControllerName,
      queue,
      clock: options.clock,
      sync: (key) => this.reconcileKey(key),
      maxRetries: Infinity,
      cacheSyncs: [() => this.hpaInformer.hasSynced(), () => this.podInformer.hasSynced()],
      trace: options.trace,
      client: options.client,
    });
    // Every HPA is (re)synced once per sync period: the queue's fixed-interval rate limiter.
    const enqueue = (hpa: HPA): void => queue.addAfter(metaNamespaceKeyFunc(hpa), this.syncPeriodMs);
    this.registrations = [
      this.hpaInformer.addEventHandler({
        onAdd: (h) => enqueue(h as HPA),
        onUpdate: (_old, cur) => enqueue(cur as HPA),
        onDelete: (h) => this.forget(metaNamespaceKeyFunc(h as HPA)),
      }),
    ];
  }

  get queue(): RateLimitingQueue<string> {
    return this.controller.queue;
  }

  shutDown(): void {
    this.controller.shutDown();
    for (const r of this.registrations) r.remove();
  }

  private forget(key: string): void {
    this.recommendations.delete(key);
    this.scaleUpEvents.delete(key);
    this.scaleDownEvents.delete(key);
  }

  /** reconcileKey: an HPA that is gone is forgotten; every other one is synced again a period later. */
  reconcileKey(key: string): void {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const hpa = this.hpaLister.get(namespace, name);
    if (!hpa) {
      this.forget(key);
      return;
    }
    try {
      this.reconcileAutoscaler(structuredClone(hpa), key);
    } finally {
      this.queue.addAfter(key, this.syncPeriodMs);
    }
  }

  private reconcileAutoscaler(hpa: HPA, key: string): void {
    const now = this.clock.now();
    const original = JSON.stringify(hpa.status ?? {});
    const spec = hpa.spec!;
    const ref = spec.scaleTargetRef;
    const minReplicas = spec.minReplicas ?? 1;

    let scale: Scale;
    let resourceClient;
    try {
      const gv = parseApiVersion(ref.apiVersion ?? '');
      const type = this.registry.all().find((t) => t.group === gv.group && t.kind === ref.kind);
      if (!type) throw new Error(`no matches for kind "${ref.kind}" in group "${gv.group}"`);
      resourceClient = this.client.resource({ group: type.group, version: type.version, resource: type.resource });
      scale = resourceClient.getScale(ref.name, { namespace: hpa.metadata.namespace });
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      this.recorder.event(hpa, EventType.Warning, 'FailedGetScale', msg);
      setCondition(hpa, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${msg}`, now);
      this.updateStatusIfNeeded(original, hpa);
      return;
    }
    setCondition(hpa, 'AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale", now);
    const currentReplicas = scale.spec?.replicas ?? 0;
    if (!this.recommendations.has(key)) this.recommendations.set(key, [{ recommendation: currentReplicas, timestamp: now }]);

    let desiredReplicas = 0;
    let rescaleReason = '';
    let rescale = true;
    let metricStatuses: MetricStatus[] = hpa.status?.currentMetrics ?? [];

    if (currentReplicas === 0 && minReplicas !== 0) {
      // Autoscaling is disabled for this resource.
      desiredReplicas = 0;
      rescale = false;
      setCondition(hpa, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', now);
    } else if (currentReplicas > spec.maxReplicas) {
      rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
      desiredReplicas = spec.maxReplicas;
    } else if (currentReplicas < minReplicas) {
      rescaleReason = 'Current number of replicas below Spec.MinReplicas';
      desiredReplicas = minReplicas;
    } else {
      const computed = this.computeReplicasForMetrics(hpa, scale, spec.metrics ?? [], now);
      metricStatuses = computed.statuses;
      if (computed.error && computed.replicas === -1) {
        this.setStatus(hpa, currentReplicas, hpa.status?.desiredReplicas ?? 0, metricStatuses, false, now);
        this.updateStatusIfNeeded(original, hpa);
        this.recorder.event(hpa, EventType.Warning, 'FailedComputeMetricsReplicas', computed.error);
        return;
      }
      let rescaleMetric = '';
      if (computed.replicas > desiredReplicas) {
        desiredReplicas = computed.replicas;
        rescaleMetric = computed.metric;
      }
      if (desiredReplicas > currentReplicas) rescaleReason = `${rescaleMetric} above target`;
      if (desiredReplicas < currentReplicas) rescaleReason = 'All metrics below target';
      desiredReplicas = spec.behavior
        ? this.normalizeDesiredReplicasWithBehaviors(hpa, key, currentReplicas, desiredReplicas, minReplicas, now)
        : this.normalizeDesiredReplicas(hpa, key, currentReplicas, desiredReplicas, minReplicas, now);
      rescale = desiredReplicas !== currentReplicas;
    }

    if (rescale) {
      try {
        resourceClient.updateScale(ref.name, { ...scale, spec: { ...scale.spec, replicas: desiredReplicas } } as never, { namespace: hpa.metadata.namespace });
      } catch (err) {
        const msg = err instanceof Error ? err.message : String(err);
        this.recorder.event(hpa, EventType.Warning, 'FailedRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${msg}`);
        setCondition(hpa, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${msg}`, now);
        this.setStatus(hpa, currentReplicas, hpa.status?.desiredReplicas ?? 0, metricStatuses, false, now);
        this.updateStatusIfNeeded(original, hpa);
        return;
      }
      setCondition(hpa, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desiredReplicas}`, now);
      this.recorder.event(hpa, EventType.Normal, 'SuccessfulRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}`);
      this.storeScaleEvent(hpa, key, currentReplicas, desiredReplicas, now);
    } else {
      desiredReplicas = currentReplicas;
    }
    this.setStatus(hpa, currentReplicas, desiredReplicas, metricStatuses, rescale, now);
    this.updateStatusIfNeeded(original, hpa);
  }

  private setStatus(hpa: HPA, currentReplicas: number, desiredReplicas: number, metrics: MetricStatus[], rescale: boolean, now: number): void {
    const prev = hpa.status ?? { desiredReplicas: 0 };
    hpa.status = {
      ...(prev.observedGeneration !== undefined ? { observedGeneration: prev.observedGeneration } : {}),
      ...(rescale ? { lastScaleTime: rfc3339(now) } : prev.lastScaleTime ? { lastScaleTime: prev.lastScaleTime } : {}),
      currentReplicas,
      desiredReplicas,
      ...(metrics.length ? { currentMetrics: metrics } : {}),
      ...(prev.conditions ? { conditions: prev.conditions } : {}),
    };
  }

  private updateStatusIfNeeded(original: string, hpa: HPA): void {
    if (JSON.stringify(hpa.status ?? {}) === original) return;
    try {
      this.client.horizontalPodAutoscalers.updateStatus(hpa);
    } catch (err) {
      // A conflict or a deleted HPA: the next sync starts from the informer's newer copy.
      if (isStatusError(err, StatusReason.Conflict) || isStatusError(err, StatusReason.NotFound)) return;
      throw err;
    }
  }

  // ------------------------------------------------------------------ metrics

  private computeReplicasForMetrics(
    hpa: HPA,
    scale: Scale,
    specs: MetricSpec[],
    now: number,
  ): { replicas: number; metric: string; statuses: MetricStatus[]; error?: string } {
    const selectorText = scale.status?.selector ?? '';
    if (!selectorText) {
      const msg = 'selector is required';
      this.recorder.event(hpa, EventType.Warning, 'SelectorRequired', msg);
      setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', "the HPA target's scale is missing a selector", now);
      return { replicas: -1, metric: '', statuses: [], error: msg };
    }
    let selector: Selector;
    try {
      selector = parseSelector(selectorText);
    } catch (err) {
      const msg = `couldn't convert selector into a corresponding internal selector object: ${err instanceof Error ? err.message : String(err)}`;
      this.recorder.event(hpa, EventType.Warning, 'InvalidSelector', msg);
      setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', msg, now);
      return { replicas: -1, metric: '', statuses: [], error: msg };
    }
    const specReplicas = scale.spec?.replicas ?? 0;
    const statuses: MetricStatus[] = specs.map(() => ({ type: '' }) as MetricStatus);
    let replicas = 0;
    let metric = '';
    let invalid = 0;
    let firstError: MetricError | undefined;
    specs.forEach((m, i) => {
      try {
        const r = this.computeReplicasForMetric(hpa, m, specReplicas, selector, now);
        statuses[i] = r.status;
        if (replicas === 0 || r.replicas > replicas) {
          replicas = r.replicas;
          metric = r.metric;
        }
      } catch (err) {
        const e = err instanceof MetricError ? err : new MetricError(String(err), { reason: 'FailedGetResourceMetric', message: String(err) });
        if (invalid === 0) firstError = e;
        invalid++;
      }
    });
    const error = firstError ? `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstError.message}` : undefined;
    if (invalid >= specs.length || (invalid > 0 && replicas < specReplicas)) {
      setCondition(hpa, 'ScalingActive', 'False', firstError!.condition.reason, firstError!.condition.message, now);
      return { replicas: -1, metric: '', statuses, error };
    }
    setCondition(hpa, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`, now);
    return { replicas, metric, statuses, error };
  }

  /** Raises MetricError, with the condition to report, after recording the Warning event the real one records. */
  private unableToCompute(hpa: HPA, reason: string, inner: string, wrapped: string): never {
    this.recorder.event(hpa, EventType.Warning, reason, inner);
    throw new MetricError(wrapped, { reason, message: `the HPA was unable to compute the replica count: ${inner}` });
  }

  private computeReplicasForMetric(hpa: HPA, m: MetricSpec, specReplicas: number, selector: Selector, now: number): { replicas: number; metric: string; status: MetricStatus } {
    const namespace = hpa.metadata.namespace ?? '';
    if (m.type === 'Resource' && m.resource) {
      const resource = m.resource.name;
      const target = m.resource.target;
      const pods = this.podLister.listNamespace(namespace, selector);
      try {
        if (resource !== 'cpu' && resource !== 'memory') throw new ReplicaCalculationError(`unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`);
        if (!this.metrics) throw new ReplicaCalculationError(`unable to get metrics for resource ${resource}: unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.k8s.io)`);
        const samples = this.metrics.podMetrics(namespace);
        if (target.averageValue !== undefined && target.averageValue !== null) {
          const targetMillis = Math.round((quantityValue(target.averageValue) ?? 0) * 1000);
          const r = this.rawResourceReplicas(specReplicas, targetMillis, resource, pods, samples, now);
          return {
            replicas: r.replicas,
            metric: `${resource} resource`,
            status: { type: 'Resource', resource: { name: resource, current: { averageValue: milli(r.average) } } },
          };
        }
        if (target.averageUtilization === undefined || target.averageUtilization === null) {
          throw new ReplicaCalculationError('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
        }
        const r = getResourceReplicas(specReplicas, target.averageUtilization, resource, pods, samples, now, this.tolerance);
        return {
          replicas: r.replicas,
          metric: `${resource} resource utilization (percentage of request)`,
          status: { type: 'Resource', resource: { name: resource, current: { averageUtilization: r.utilization, averageValue: milli(resource === 'cpu' ? r.rawUtilization : r.rawUtilization * 1000) } } },
        };
      } catch (err) {
        if (!(err instanceof ReplicaCalculationError)) throw err;
        const inner = `failed to get ${resource} utilization: ${err.message}`;
        this.unableToCompute(hpa, 'FailedGetResourceMetric', inner, `failed to get ${resource} resource metric value: ${inner}`);
      }
    }
    // Pods/Object/External metrics need a custom or external metrics adapter, which this cluster does not run.
    const kinds: Record<string, { reason: string; inner: string; wrapped: string }> = {
      Pods: { reason: 'FailedGetPodsMetric', inner: `unable to get metric ${m.pods?.metric.name}: unable to fetch metrics from custom metrics API: the server could not find the metric ${m.pods?.metric.name} for pods`, wrapped: 'failed to get pods metric value' },
      Object: { reason: 'FailedGetObjectMetric', inner: `unable to get metric ${m.object?.metric.name}: ${m.object?.describedObject.kind} on ${namespace} ${m.object?.describedObject.name}/unable to fetch metrics from custom metrics API: the server could not find the requested resource`, wrapped: 'failed to get object metric value' },
      External: { reason: 'FailedGetExternalMetric', inner: `unable to get external metric ${namespace}/${m.external?.metric.name}/nil: unable to fetch metrics from external metrics API: the server could not find the requested resource`, wrapped: 'failed to get external metric value' },
      ContainerResource: { reason: 'FailedGetContainerResourceMetric', inner: `failed to get ${m.containerResource?.name} utilization: unable to get metrics for resource ${m.containerResource?.name}: no metrics returned from resource metrics API`, wrapped: `failed to get ${m.containerResource?.name} container metric value` },
    };
    const k = kinds[m.type];
    if (k) this.unableToCompute(hpa, k.reason, k.inner, `${k.wrapped}: ${k.inner}`);
    const msg = `unknown metric source type "${m.type}"`;
    this.unableToCompute(hpa, 'InvalidMetricSourceType', msg, msg);
  }

  /** GetRawResourceReplicas → calcPlainMetricReplicas: an average usage target (millicores). */
  private rawResourceReplicas(currentReplicas: number, targetMillis: number, resource: 'cpu' | 'memory', pods: Pod[], samples: Parameters<typeof podMetricsInfo>[0], now: number): { replicas: number; average: number } {
    const metrics = podMetricsInfo(samples, resource, new Set(pods.map((p) => p.metadata?.name ?? '')));
    if (metrics.size === 0) throw new ReplicaCalculationError(`unable to get metrics for resource ${resource}: no metrics returned from resource metrics API`);
    if (pods.length === 0) throw new ReplicaCalculationError('no pods returned by selector while calculating replica count');
    const scaleMillis = resource === 'cpu' ? 1 : 1000;
    const { readyPodCount, unreadyPods, missingPods, ignoredPods } = groupPods(pods, metrics, resource, now);
    for (const p of [...ignoredPods, ...unreadyPods]) metrics.delete(p);
    if (metrics.size === 0) throw new ReplicaCalculationError('did not receive metrics for targeted pods (pods might be unready)');
    const ratioOf = (): { ratio: number; average: number } => {
      let total = 0;
      for (const m of metrics.values()) total += m.value * scaleMillis;
      const average = Math.trunc(total / metrics.size);
      return { ratio: average / targetMillis, average };
    };
    const { ratio, average } = ratioOf();
    const scaleUpWithUnready = unreadyPods.size > 0 && ratio > 1;
    if (!scaleUpWithUnready && missingPods.size === 0) {
      if (Math.abs(1 - ratio) <= this.tolerance) return { replicas: currentReplicas, average };
      return { replicas: Math.ceil(ratio * readyPodCount), average };
    }
    for (const p of missingPods) metrics.set(p, { timestamp: 0, windowMs: 0, value: ratio < 1 ? targetMillis / scaleMillis : 0 });
    if (scaleUpWithUnready) for (const p of unreadyPods) metrics.set(p, { timestamp: 0, windowMs: 0, value: 0 });
    const next = ratioOf().ratio;
    if (Math.abs(1 - next) <= this.tolerance || (ratio < 1 && next > 1) || (ratio > 1 && next < 1)) return { replicas: currentReplicas, average };
    return { replicas: Math.ceil(next * metrics.size), average };
  }

  // ------------------------------------------------------------------ normalization

  /** normalizeDesiredReplicas (no spec.behavior): downscale stabilization, then the fixed scale-up rate. */
  private normalizeDesiredReplicas(hpa: HPA, key: string, currentReplicas: number, prenormalized: number, minReplicas: number, now: number): number {
    const stabilized = this.stabilizeRecommendation(key, prenormalized, now);
    if (stabilized !== prenormalized) {
      setCondition(hpa, 'AbleToScale', 'True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation', now);
    } else {
      setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size', now);
    }
    const maxReplicas = hpa.spec!.maxReplicas;
    const scaleUpLimit = Math.max(scaleUpLimitFactor * currentReplicas, scaleUpLimitMinimum);
    let limit: { max: number; reason: string; message: string };
    if (maxReplicas > scaleUpLimit) limit = { max: scaleUpLimit, reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' };
    else limit = { max: maxReplicas, reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' };
    let desired = stabilized;
    let reason = 'DesiredWithinRange';
    let message = 'the desired count is within the acceptable range';
    if (stabilized < minReplicas) {
      desired = minReplicas;
      reason = 'TooFewReplicas';
      message = 'the desired replica count is less than the minimum replica count';
    } else if (stabilized > limit.max) {
      desired = limit.max;
      ({ reason, message } = limit);
    }
    setCondition(hpa, 'ScalingLimited', desired === stabilized ? 'False' : 'True', reason, message, now);
    return desired;
  }

  /** stabilizeRecommendation: the highest recommendation of the stabilization window wins. */
  private stabilizeRecommendation(key: string, prenormalized: number, now: number): number {
    let max = prenormalized;
    let oldIndex = -1;
    const cutoff = now - this.downscaleStabilizationMs;
    const recs = this.recommendations.get(key) ?? [];
    recs.forEach((rec, i) => {
      if (rec.timestamp < cutoff) oldIndex = i;
      else if (rec.recommendation > max) max = rec.recommendation;
    });
    if (oldIndex >= 0) recs[oldIndex] = { recommendation: prenormalized, timestamp: now };
    else recs.push({ recommendation: prenormalized, timestamp: now });
    this.recommendations.set(key, recs);
    return max;
  }

  private normalizeDesiredReplicasWithBehaviors(hpa: HPA, key: string, currentReplicas: number, prenormalized: number, minReplicas: number, now: number): number {
    const behavior = hpa.spec!.behavior!;
    const up = behavior.scaleUp ?? {};
    const down = behavior.scaleDown ?? {};
    // maybeInitScaleDownStabilizationWindow: an unset window takes the controller's flag.
    const downWindowMs = down.stabilizationWindowSeconds !== undefined ? down.stabilizationWindowSeconds * 1000 : this.downscaleStabilizationMs;
    const upWindowMs = (up.stabilizationWindowSeconds ?? 0) * 1000;

    let upRec = prenormalized;
    let downRec = prenormalized;
    let oldIndex = -1;
    const recs = this.recommendations.get(key) ?? [];
    recs.forEach((rec, i) => {
      if (rec.timestamp > now - upWindowMs) upRec = Math.min(rec.recommendation, upRec);
      if (rec.timestamp > now - downWindowMs) downRec = Math.max(rec.recommendation, downRec);
      if (rec.timestamp < now - upWindowMs && rec.timestamp < now - downWindowMs) oldIndex = i;
    });
    let stabilized = currentReplicas;
    if (stabilized < upRec) stabilized = upRec;
    if (stabilized > downRec) stabilized = downRec;
    if (oldIndex >= 0) recs[oldIndex] = { recommendation: prenormalized, timestamp: now };
    else recs.push({ recommendation: prenormalized, timestamp: now });
    this.recommendations.set(key, recs);

    if (stabilized !== prenormalized) {
      if (prenormalized >= currentReplicas) setCondition(hpa, 'AbleToScale', 'True', 'ScaleUpStabilized', 'recent recommendations were lower than current one, applying the lowest recent recommendation', now);
      else setCondition(hpa, 'AbleToScale', 'True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation', now);
    } else {
      setCondition(hpa, 'AbleToScale', 'True', 'ReadyForNewScale', 'recommended size matches current size', now);
    }

    const maxReplicas = hpa.spec!.maxReplicas;
    let desired = stabilized;
    let reason = 'DesiredWithinRange';
    let message = 'the desired count is within the acceptable range';
    if (stabilized > currentReplicas) {
      let limit = scaleUpLimitWithRules(currentReplicas, this.scaleUpEvents.get(key) ?? [], this.scaleDownEvents.get(key) ?? [], up, now);
      if (limit < currentReplicas) limit = currentReplicas;
      let max = maxReplicas;
      let r = 'TooManyReplicas';
      let msg = 'the desired replica count is more than the maximum replica count';
      if (max > limit) {
        max = limit;
        r = 'ScaleUpLimit';
        msg = 'the desired replica count is increasing faster than the maximum scale rate';
      }
      if (stabilized > max) [desired, reason, message] = [max, r, msg];
    } else if (stabilized < currentReplicas) {
      let limit = scaleDownLimitWithRules(currentReplicas, this.scaleUpEvents.get(key) ?? [], this.scaleDownEvents.get(key) ?? [], down, now);
      if (limit > currentReplicas) limit = currentReplicas;
      let min = minReplicas;
      let r = 'TooFewReplicas';
      let msg = 'the desired replica count is less than the minimum replica count';
      if (min < limit) {
        min = limit;
        r = 'ScaleDownLimit';
        msg = 'the desired replica count is decreasing faster than the maximum scale rate';
      }
      if (stabilized < min) [desired, reason, message] = [min, r, msg];
    }
    setCondition(hpa, 'ScalingLimited', desired === stabilized ? 'False' : 'True', reason, message, now);
    return desired;
  }

  /** storeScaleEvent: remembered only with spec.behavior, for the rate policies' periods. */
  private storeScaleEvent(hpa: HPA, key: string, prev: number, next: number, now: number): void {
    const behavior = hpa.spec?.behavior;
    if (!behavior) return;
    const up = next > prev;
    const rules = up ? behavior.scaleUp : behavior.scaleDown;
    const longest = Math.max(0, ...(rules?.policies ?? []).map((p) => p.periodSeconds)) * 1000;
    const map = up ? this.scaleUpEvents : this.scaleDownEvents;
    const events = (map.get(key) ?? []).filter((e) => !e.outdated && e.timestamp > now - longest);
    events.push({ replicaChange: Math.abs(next - prev), timestamp: now, outdated: false });
    map.set(key, events);
  }
}

function milli(millis: number): string {
  return quantityToString(newMilliQuantity(Math.round(millis)));
}

function changeInPeriod(periodSeconds: number, events: readonly TimestampedScaleEvent[], now: number): number {
  const cutoff = now - periodSeconds * 1000;
  return events.filter((e) => e.timestamp > cutoff).reduce((s, e) => s + e.replicaChange, 0);
}

/** calculateScaleUpLimitWithScalingRules */
export function scaleUpLimitWithRules(current: number, upEvents: readonly TimestampedScaleEvent[], downEvents: readonly TimestampedScaleEvent[], rules: HPAScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pick = rules.selectPolicy === 'Min' ? Math.min : Math.max;
  let result = rules.selectPolicy === 'Min' ? Infinity : -Infinity;
  for (const p of rules.policies ?? []) {
    const start = current - changeInPeriod(p.periodSeconds, upEvents, now) + changeInPeriod(p.periodSeconds, downEvents, now);
    const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
    result = pick(result, proposed);
  }
  return Number.isFinite(result) ? result : current;
}

/** calculateScaleDownLimitWithBehaviors */
export function scaleDownLimitWithRules(current: number, upEvents: readonly TimestampedScaleEvent[], downEvents: readonly TimestampedScaleEvent[], rules: HPAScalingRules, now: number): number {
  if (rules.selectPolicy === 'Disabled') return current;
  const pick = rules.selectPolicy === 'Min' ? Math.max : Math.min;
  let result = rules.selectPolicy === 'Min' ? -Infinity : Infinity;
  for (const p of rules.policies ?? []) {
    const start = current - changeInPeriod(p.periodSeconds, upEvents, now) + changeInPeriod(p.periodSeconds, downEvents, now);
    const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
    result = pick(result, proposed);
  }
  return Number.isFinite(result) ? result : current;
}

