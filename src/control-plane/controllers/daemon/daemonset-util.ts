// pkg/controller/daemon/util/daemonset_util.go: what every DaemonSet pod gets on top of the template (the
// automatic tolerations, the controller-revision-hash and pod-template-generation labels, the node affinity that
// pins it to its node), and the update-strategy arithmetic (maxSurge, maxUnavailable).
import type { DaemonSet } from 'kubernetes-types/apps/v1';
import type { Affinity, NodeSelectorRequirement, Pod, PodSpec, PodTemplateSpec, Toleration } from 'kubernetes-types/core/v1';
import { getScaledValueFromIntOrPercent } from '../../../shared/lib/intstr';
import { TaintEffect, TaintKey } from '../nodelifecycle/taints';

/** apps.DefaultDaemonSetUniqueLabelKey (= ControllerRevisionHashLabelKey): the revision a pod was made from. */
export const DefaultDaemonSetUniqueLabelKey = 'controller-revision-hash';
/** extensions.DaemonSetTemplateGenerationKey: the pod label of the (deprecated) template generation. */
export const DaemonSetTemplateGenerationKey = 'pod-template-generation';
/** apps.DeprecatedTemplateGeneration: the DaemonSet annotation apps/v1 keeps spec.templateGeneration in. */
export const DeprecatedTemplateGeneration = 'deprecated.daemonset.template.generation';
/** metav1.ObjectNameField: the one field a node selector's matchFields may name. */
export const ObjectNameField = 'metadata.name';

export const DaemonSetUpdateStrategyType = {
  RollingUpdate: 'RollingUpdate',
  OnDelete: 'OnDelete',
} as const;

/**
 * GetTemplateGeneration: the generation in the deprecated annotation; undefined when absent. An annotation
 * that does not parse as an int64 is an error (callers then treat the generation as absent).
 */
export function getTemplateGeneration(ds: DaemonSet): { generation?: number; error?: string } {
  const annotation = ds.metadata?.annotations?.[DeprecatedTemplateGeneration];
  if (annotation === undefined) return {};
  if (!/^[+-]?\d+$/.test(annotation)) return { error: `strconv.ParseInt: parsing ${JSON.stringify(annotation)}: invalid syntax` };
  return { generation: Number.parseInt(annotation, 10) };
}

/** Toleration.MatchToleration: same key, operator, value and effect (tolerationSeconds is not compared). */
function matchToleration(a: Toleration, b: Toleration): boolean {
  return (a.key ?? '') === (b.key ?? '') && (a.effect ?? '') === (b.effect ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '');
}

function sameToleration(a: Toleration, b: Toleration): boolean {
  return matchToleration(a, b) && a.tolerationSeconds === b.tolerationSeconds;
}

/**
 * v1helper.AddOrUpdateTolerationInPodSpec: a toleration matching the new one (ignoring tolerationSeconds) is
 * replaced in place; otherwise the new one is appended. Returns whether the spec changed.
 */
export function addOrUpdateTolerationInPodSpec(spec: PodSpec, toleration: Toleration): boolean {
  const out: Toleration[] = [];
  let updated = false;
  for (const t of spec.tolerations ?? []) {
    if (matchToleration(toleration, t)) {
      if (sameToleration(toleration, t)) return false;
      out.push({ ...toleration });
      updated = true;
      continue;
    }
    out.push(t);
  }
  if (!updated) out.push({ ...toleration });
  spec.tolerations = out;
  return true;
}

/**
 * AddOrUpdateDaemonPodTolerations: a DaemonSet pod must survive node problems, so it tolerates forever the
 * not-ready and unreachable NoExecute taints (no tolerationSeconds: the taint-eviction controller never evicts
 * it), and the NoSchedule taints of TaintNodesByCondition — disk/memory/pid pressure, unschedulable (a cordoned
 * node still runs its daemons) and, for hostNetwork pods, network-unavailable (they bring the network up).
 */
export function addOrUpdateDaemonPodTolerations(spec: PodSpec): void {
  const exists = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect });
  addOrUpdateTolerationInPodSpec(spec, exists(TaintKey.NotReady, TaintEffect.NoExecute));
  addOrUpdateTolerationInPodSpec(spec, exists(TaintKey.Unreachable, TaintEffect.NoExecute));
  addOrUpdateTolerationInPodSpec(spec, exists(TaintKey.DiskPressure, TaintEffect.NoSchedule));
  addOrUpdateTolerationInPodSpec(spec, exists(TaintKey.MemoryPressure, TaintEffect.NoSchedule));
  addOrUpdateTolerationInPodSpec(spec, exists(TaintKey.PIDPressure, TaintEffect.NoSchedule));
  addOrUpdateTolerationInPodSpec(spec, exists(TaintKey.Unschedulable, TaintEffect.NoSchedule));
  if (spec.hostNetwork) addOrUpdateTolerationInPodSpec(spec, exists(TaintKey.NetworkUnavailable, TaintEffect.NoSchedule));
}

/**
 * CreatePodTemplate: a copy of the template with the daemon tolerations, the pod-template-generation label
 * (when the DaemonSet has one) and the controller-revision-hash label.
 */
export function createPodTemplate(template: PodTemplateSpec | undefined, generation: number | undefined, hash: string): PodTemplateSpec {
  const t: PodTemplateSpec = structuredClone(template ?? {});
  t.spec ??= { containers: [] };
  addOrUpdateDaemonPodTolerations(t.spec);
  t.metadata ??= {};
  t.metadata.labels = { ...(t.metadata.labels ?? {}) };
  if (generation !== undefined) t.metadata.labels[DaemonSetTemplateGenerationKey] = String(generation);
  if (hash.length > 0) t.metadata.labels[DefaultDaemonSetUniqueLabelKey] = hash;
  return t;
}

/**
 * SurgeCount: 0 unless the strategy is RollingUpdate with a maxSurge; else maxSurge of numberToSchedule, a
 * percentage rounded up ("10%" of 3 nodes → 1). Throws on a malformed value.
 */
export function surgeCount(ds: DaemonSet, numberToSchedule: number): number {
  if (ds.spec?.updateStrategy?.type !== DaemonSetUpdateStrategyType.RollingUpdate) return 0;
  const r = ds.spec.updateStrategy.rollingUpdate;
  if (!r || r.maxSurge === undefined || r.maxSurge === null) return 0;
  return getScaledValueFromIntOrPercent(r.maxSurge, numberToSchedule, true);
}

/** UnavailableCount: like surgeCount for maxUnavailable (also rounded up). */
export function unavailableCount(ds: DaemonSet, numberToSchedule: number): number {
  if (ds.spec?.updateStrategy?.type !== DaemonSetUpdateStrategyType.RollingUpdate) return 0;
  const r = ds.spec.updateStrategy.rollingUpdate;
  if (!r) return 0;
  return getScaledValueFromIntOrPercent(r.maxUnavailable ?? undefined, numberToSchedule, true);
}

/** AllowsSurge: whether more than one pod may run on a node during an update. */
export function allowsSurge(ds: DaemonSet): boolean {
  try {
    return surgeCount(ds, 1) > 0;
  } catch {
    return false;
  }
}

/** IsPodUpdated: the pod carries the current revision's hash, or the current template generation. */
export function isPodUpdated(pod: Pod, hash: string, generation: number | undefined): boolean {
  const labels = pod.metadata?.labels ?? {};
  const templateMatches = generation !== undefined && labels[DaemonSetTemplateGenerationKey] === String(generation);
  const hashMatches = hash.length > 0 && labels[DefaultDaemonSetUniqueLabelKey] === hash;
  return hashMatches || templateMatches;
}

/**
 * ReplaceDaemonSetPodNodeNameNodeAffinity: the pod's required node affinity becomes a single term
 * `matchFields: metadata.name In [nodeName]`, so the default scheduler can only bind it to that node. The
 * template's own required terms are dropped (the controller already checked the node satisfies them); its
 * preferred terms and pod (anti-)affinity stay.
 */
export function replaceDaemonSetPodNodeNameNodeAffinity(affinity: Affinity | undefined, nodeName: string): Affinity {
  const nodeSelReq: NodeSelectorRequirement = { key: ObjectNameField, operator: 'In', values: [nodeName] };
  const nodeSelector = { nodeSelectorTerms: [{ matchFields: [nodeSelReq] }] };
  if (!affinity) return { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: nodeSelector } };
  if (!affinity.nodeAffinity) {
    affinity.nodeAffinity = { requiredDuringSchedulingIgnoredDuringExecution: nodeSelector };
    return affinity;
  }
  const nodeAffinity = affinity.nodeAffinity;
  if (!nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution) {
    nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = nodeSelector;
    return affinity;
  }
  nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms = [{ matchFields: [nodeSelReq] }];
  return affinity;
}

/**
 * GetTargetNodeName: the node a daemon pod is for — spec.nodeName once bound, else the metadata.name In [node]
 * field requirement of its required node affinity. Throws (with the upstream texts) when there is none.
 */
export function getTargetNodeName(pod: Pod): string {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const ns = pod.metadata?.namespace ?? '';
  const name = pod.metadata?.name ?? '';
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) throw new Error(`no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod ${ns}/${name}`);
  const terms = required.nodeSelectorTerms ?? [];
  if (terms.length < 1) throw new Error(`no nodeSelectorTerms in requiredDuringSchedulingIgnoredDuringExecution of pod ${ns}/${name}`);
  for (const term of terms) {
    for (const exp of term.matchFields ?? []) {
      if (exp.key === ObjectNameField && exp.operator === 'In') {
        if ((exp.values ?? []).length !== 1) throw new Error(`the matchFields value of '${ObjectNameField}' is not unique for pod ${ns}/${name}`);
        return exp.values![0];
      }
    }
  }
  throw new Error(`no node name found for pod ${ns}/${name}`);
}
