// How quota measures objects: the evaluators of pkg/quota/v1/evaluator/core (pods, services, claims) and the
// generic object-count evaluator (count/<resource>.<group>) of apiserver/pkg/quota/v1/generic.
import type { GroupResource, KubeObject } from '../../../shared/api/types';
import { type Quantity, compareQuantities, newQuantity, toScaledBigInt } from '../../../shared/lib/quantity';
import type { AdmissionAttributes } from '../types';
import { AdmissionOperation as Op } from '../types';
import { podLimits, podRequests } from './pod-resources';
import { type ResourceList, parseResourceList } from './resource-list';

/** A scope of ResourceQuota.spec.scopes or a scopeSelector expression. */
export interface ScopeSelectorRequirement {
  scopeName: string;
  operator: string; // In, NotIn, Exists, DoesNotExist
  values?: string[];
}

export interface QuotaEvaluator {
  /** Whether this operation can change usage at all (object counts only change on create). */
  handles(attrs: AdmissionAttributes): boolean;
  /** The resource names of a quota this evaluator charges. */
  matchingResources(names: readonly string[]): string[];
  /** Whether the object falls in a scope; evaluators without scopes match none. */
  matchesScope(selector: ScopeSelectorRequirement, obj: KubeObject): boolean;
  /** Requirements the object must meet to be admitted under these quota resources ("must specify …"). */
  constraints(required: readonly string[], obj: KubeObject): string | undefined;
  usage(obj: KubeObject, now: number): ResourceList;
}

const one = (): Quantity => newQuantity(1);

/** generic.ObjectCountQuotaResourceNameFor: count/pods, count/deployments.apps. */
export function objectCountName(gr: GroupResource): string {
  return gr.group ? `count/${gr.resource}.${gr.group}` : `count/${gr.resource}`;
}

function objectCountEvaluator(gr: GroupResource, alias?: string): QuotaEvaluator {
  const names = [objectCountName(gr), ...(alias ? [alias] : [])];
  return {
    handles: (attrs) => attrs.operation === Op.Create,
    matchingResources: (input) => input.filter((n) => names.includes(n)),
    matchesScope: () => false,
    constraints: () => undefined,
    usage: () => new Map(names.map((n) => [n, one()])),
  };
}

// ---------------------------------------------------------------- pods

const podResources = [
  'count/pods',
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
];
const podResourcePrefixes = ['hugepages-', 'requests.hugepages-'];
/** If a quota tracks these, every container must state them: a historical mistake Kubernetes keeps. */
const validationSet = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

function isExtendedResourceNameForQuota(name: string): boolean {
  return !isNativeResource(name) && name.startsWith('requests.');
}

/** podComputeUsageHelper. */
function podComputeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', one()]]);
  const pairs: [string, string, string][] = [
    ['cpu', 'requests.cpu', 'limits.cpu'],
    ['memory', 'requests.memory', 'limits.memory'],
    ['ephemeral-storage', 'requests.ephemeral-storage', 'limits.ephemeral-storage'],
  ];
  for (const [name, req, lim] of pairs) {
    const r = requests.get(name);
    if (r) {
      out.set(name, r);
      out.set(req, r);
    }
    const l = limits.get(name);
    if (l) out.set(lim, l);
  }
  for (const [name, r] of requests) {
    if (name.startsWith('hugepages-')) {
      out.set(name, r);
      out.set(`requests.${name}`, r);
    } else if (!isNativeResource(name)) {
      out.set(`requests.${name}`, r);
    }
  }
  return out;
}

interface PodLike {
  spec?: {
    activeDeadlineSeconds?: number;
    priorityClassName?: string;
    containers?: { name: string; resources?: { requests?: unknown; limits?: unknown } }[];
    initContainers?: { name: string; resources?: { requests?: unknown; limits?: unknown } }[];
  };
  status?: { phase?: string };
}

export function isTerminatingPod(pod: KubeObject): boolean {
  const ads = (pod as PodLike).spec?.activeDeadlineSeconds;
  return ads !== undefined && ads !== null && ads >= 0;
}

/** qos.GetPodQOS === BestEffort: no container requests or limits cpu or memory. */
export function isBestEffortPod(pod: KubeObject): boolean {
  const spec = (pod as PodLike).spec ?? {};
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    for (const list of [parseResourceList(c.resources?.requests), parseResourceList(c.resources?.limits)]) {
      for (const [k, v] of list) if ((k === 'cpu' || k === 'memory') && v.unscaled !== 0n) return false;
    }
  }
  return true;
}

/** QuotaV1Pod: terminal pods, and pods past their deletion grace period, stop counting. */
export function podCountsForQuota(pod: KubeObject, now: number): boolean {
  const phase = (pod as PodLike).status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const ts = pod.metadata.deletionTimestamp;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (ts && grace !== undefined && grace !== null) {
    if (now > Date.parse(String(ts)) + grace * 1000) return false;
  }
  return true;
}

function podMatchesScope(selector: ScopeSelectorRequirement, pod: KubeObject): boolean {
  switch (selector.scopeName) {
    case 'Terminating':
      return isTerminatingPod(pod);
    case 'NotTerminating':
      return !isTerminatingPod(pod);
    case 'BestEffort':
      return isBestEffortPod(pod);
    case 'NotBestEffort':
      return !isBestEffortPod(pod);
    case 'PriorityClass': {
      const pc = (pod as PodLike).spec?.priorityClassName ?? '';
      const values = selector.values ?? [];
      switch (selector.operator) {
        case 'Exists':
          return pc !== '';
        case 'DoesNotExist':
          return pc === '';
        case 'In':
          return pc !== '' && values.includes(pc);
        case 'NotIn':
          return pc === '' || !values.includes(pc);
        default:
          return false;
      }
    }
    case 'CrossNamespacePodAffinity':
      return usesCrossNamespacePodAffinity(pod);
    default:
      return false;
  }
}

function usesCrossNamespacePodAffinity(pod: KubeObject): boolean {
  type Term = { namespaces?: string[]; namespaceSelector?: unknown };
  type Affinity = { requiredDuringSchedulingIgnoredDuringExecution?: Term[]; preferredDuringSchedulingIgnoredDuringExecution?: { podAffinityTerm: Term }[] };
  const affinity = (pod.spec as { affinity?: { podAffinity?: Affinity; podAntiAffinity?: Affinity } } | undefined)?.affinity;
  const cross = (t: Term) => (t.namespaces ?? []).length > 0 || (t.namespaceSelector !== undefined && t.namespaceSelector !== null);
  for (const a of [affinity?.podAffinity, affinity?.podAntiAffinity]) {
    if (!a) continue;
    if ((a.requiredDuringSchedulingIgnoredDuringExecution ?? []).some(cross)) return true;
    if ((a.preferredDuringSchedulingIgnoredDuringExecution ?? []).some((w) => cross(w.podAffinityTerm))) return true;
  }
  return false;
}

const podEvaluator: QuotaEvaluator = {
  handles(attrs) {
    if (attrs.subresource) return false;
    if (attrs.operation === Op.Update && attrs.object && attrs.oldObject) {
      // Only a change of the Terminating scope moves a pod between quotas on update.
      return isTerminatingPod(attrs.object) !== isTerminatingPod(attrs.oldObject);
    }
    return attrs.operation === Op.Create;
  },
  matchingResources(input) {
    const out = input.filter((n) => podResources.includes(n));
    for (const n of input) {
      if (podResourcePrefixes.some((p) => n.startsWith(p)) || isExtendedResourceNameForQuota(n)) out.push(n);
    }
    return out;
  },
  matchesScope: podMatchesScope,
  constraints(required, pod) {
    const requiredSet = required.filter((r) => validationSet.has(r));
    const missing = new Map<string, Set<string>>();
    const spec = (pod as PodLike).spec ?? {};
    for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
      const usage = podComputeUsage(parseResourceList(c.resources?.requests), parseResourceList(c.resources?.limits));
      for (const r of requiredSet) {
        if (usage.has(r)) continue;
        const names = missing.get(r) ?? new Set<string>();
        names.add(c.name);
        missing.set(r, names);
      }
    }
    if (missing.size === 0) return undefined;
    const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...(missing.get(r) ?? [])].sort().join(',')}`);
    return `must specify ${parts.join('; ')}`;
  },
  usage(pod, now) {
    const out: ResourceList = new Map([['count/pods', one()]]);
    if (!podCountsForQuota(pod, now)) return out;
    const usage = podComputeUsage(podRequests(pod, { includeOverhead: true }), podLimits(pod, { includeOverhead: true }));
    for (const [k, v] of usage) out.set(k, v);
    return out;
  },
};

// ---------------------------------------------------------------- services

const serviceResources = ['count/services', 'services', 'services.nodeports', 'services.loadbalancers'];

const serviceEvaluator: QuotaEvaluator = {
  // Create and update: a service can change type.
  handles: (attrs) => !attrs.subresource && (attrs.operation === Op.Create || attrs.operation === Op.Update),
  matchingResources: (input) => input.filter((n) => serviceResources.includes(n)),
  matchesScope: () => false,
  constraints: () => undefined,
  usage(svc) {
    const spec = (svc.spec ?? {}) as { type?: string; ports?: unknown[]; allocateLoadBalancerNodePorts?: boolean };
    const ports = (spec.ports ?? []).length;
    const out: ResourceList = new Map([
      ['count/services', one()],
      ['services', one()],
      ['services.loadbalancers', newQuantity(0)],
      ['services.nodeports', newQuantity(0)],
    ]);
    if (spec.type === 'NodePort') out.set('services.nodeports', newQuantity(ports));
    if (spec.type === 'LoadBalancer') {
      if (spec.allocateLoadBalancerNodePorts !== false) out.set('services.nodeports', newQuantity(ports));
      out.set('services.loadbalancers', one());
    }
    return out;
  },
};

// ---------------------------------------------------------------- persistent volume claims

const pvcResources = ['persistentvolumeclaims', 'requests.storage'];
const storageClassSuffix = '.storageclass.storage.k8s.io/';

function claimClass(pvc: KubeObject): string {
  const beta = pvc.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (beta !== undefined) return beta;
  return (pvc.spec as { storageClassName?: string } | undefined)?.storageClassName ?? '';
}

const pvcEvaluator: QuotaEvaluator = {
  handles: (attrs) => !attrs.subresource && (attrs.operation === Op.Create || attrs.operation === Op.Update),
  matchingResources(input) {
    return input.filter(
      (n) => n === 'count/persistentvolumeclaims' || pvcResources.includes(n) || pvcResources.some((r) => n.endsWith(`${storageClassSuffix}${r}`)),
    );
  },
  matchesScope: () => false,
  constraints: () => undefined,
  usage(pvc) {
    const out: ResourceList = new Map([
      ['persistentvolumeclaims', one()],
      ['count/persistentvolumeclaims', one()],
    ]);
    const cls = claimClass(pvc);
    if (cls) out.set(`${cls}${storageClassSuffix}persistentvolumeclaims`, one());
    const spec = (pvc.spec ?? {}) as { resources?: { requests?: unknown } };
    const status = (pvc.status ?? {}) as { allocatedResources?: unknown };
    // Whole bytes only, so fractional requests cannot slip under a quota.
    const roundUp = (q: Quantity): Quantity => (q.exp < 0 ? { unscaled: toScaledBigInt(q, 0), exp: 0, format: q.format } : q);
    const requested = parseResourceList(spec.resources?.requests).get('storage');
    let storage = requested ? roundUp(requested) : undefined;
    // A resize in flight is charged at the larger of request and allocation.
    const allocated = parseResourceList(status.allocatedResources).get('storage');
    if (allocated && (!storage || compareQuantities(allocated, storage) > 0)) storage = roundUp(allocated);
    if (storage) {
      out.set('requests.storage', storage);
      if (cls) out.set(`${cls}${storageClassSuffix}requests.storage`, storage);
    }
    return out;
  },
};

// ---------------------------------------------------------------- registry

/** Never charged: virtual resources and events (install/registry.go ignoredResources). */
const ignoredResources = new Set([
  '/bindings',
  '/componentstatuses',
  '/events',
  'events.k8s.io/events',
  'authentication.k8s.io/tokenreviews',
  'authentication.k8s.io/selfsubjectreviews',
  'authorization.k8s.io/subjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/localsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
]);

const legacyCountAliases: Record<string, string> = {
  configmaps: 'configmaps',
  secrets: 'secrets',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
};

/** Evaluators by "group/resource": one per resource, not one per admitted request. */
const evaluators = new Map<string, QuotaEvaluator | undefined>();

/** The evaluator for a resource, or undefined for the ignored ones. */
export function quotaEvaluatorFor(gr: GroupResource): QuotaEvaluator | undefined {
  const key = `${gr.group}/${gr.resource}`;
  if (evaluators.has(key)) return evaluators.get(key);
  const evaluator = newQuotaEvaluator(gr);
  evaluators.set(key, evaluator);
  return evaluator;
}

function newQuotaEvaluator(gr: GroupResource): QuotaEvaluator | undefined {
  if (ignoredResources.has(`${gr.group}/${gr.resource}`)) return undefined;
  if (gr.group === '') {
    if (gr.resource === 'pods') return podEvaluator;
    if (gr.resource === 'services') return serviceEvaluator;
    if (gr.resource === 'persistentvolumeclaims') return pvcEvaluator;
    const alias = legacyCountAliases[gr.resource];
    if (alias) return objectCountEvaluator(gr, alias);
  }
  return objectCountEvaluator(gr);
}
