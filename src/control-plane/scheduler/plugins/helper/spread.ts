// helper.DefaultSelector (pkg/scheduler/framework/plugins/helper/spread.go): the selector of the pods "like"
// this one — the Services selecting it plus its controlling ReplicationController, ReplicaSet or StatefulSet —
// which PodTopologySpread's system default constraints spread over.
import type { Pod } from 'kubernetes-types/core/v1';
import type { LabelSelector } from 'kubernetes-types/meta/v1';
import { everything, labelSelectorAsSelector, matchesSet, type Requirement, type Selector } from '../../../../shared/lib/labels';
import type { Handle } from '../../framework/handle';

/** A label set as requirements, sorted by key. */
function toRequirements(set: Record<string, string>): Requirement[] {
  return Object.keys(set)
    .sort()
    .map((k) => ({ key: k, operator: '=', values: [set[k]] }));
}

export function defaultSelector(pod: Pod, handle: Pick<Handle, 'serviceLister' | 'replicationControllerLister' | 'replicaSetLister' | 'statefulSetLister'>): Selector {
  const namespace = pod.metadata?.namespace ?? '';
  const labels = pod.metadata?.labels ?? {};
  const labelSet: Record<string, string> = {};
  for (const svc of handle.serviceLister?.listNamespace(namespace) ?? []) {
    const sel = svc.spec?.selector;
    // A Service without a selector selects nothing (GetPodServices skips it).
    if (!sel || Object.keys(sel).length === 0) continue;
    if (matchesSet(sel, labels)) Object.assign(labelSet, sel);
  }
  let selector: Selector = { requirements: toRequirements(labelSet) };
  const owner = (pod.metadata?.ownerReferences ?? []).find((r) => r.controller);
  if (!owner) return selector;
  const group = owner.apiVersion.includes('/') ? owner.apiVersion.split('/')[0] : '';
  if (group === '' && owner.kind === 'ReplicationController') {
    const rc = handle.replicationControllerLister?.get(namespace, owner.name);
    if (rc?.spec?.selector) selector = { requirements: toRequirements({ ...labelSet, ...rc.spec.selector }) };
  } else if (group === 'apps' && (owner.kind === 'ReplicaSet' || owner.kind === 'StatefulSet')) {
    const obj = owner.kind === 'ReplicaSet' ? handle.replicaSetLister?.get(namespace, owner.name) : handle.statefulSetLister?.get(namespace, owner.name);
    if (obj?.spec?.selector) {
      // No Service selects the pod (the usual case): the answer depends on the controller alone, so every pod
      // of one ReplicaSet gets the same Selector object (and its count key is then looked up by identity).
      if (selector.requirements.length === 0) return controllerOnlySelector(obj.spec.selector);
      const other = controllerSelector(obj.spec.selector);
      if (other) selector = { requirements: [...selector.requirements, ...other.requirements] };
    }
  }
  return selector.requirements.length ? selector : everything();
}

/** The controller's selector parsed, per (frozen) LabelSelector object; null when it is invalid or selects nothing. */
const parsedControllerSelectors = new WeakMap<object, Selector | null>();

function controllerSelector(ls: LabelSelector): Selector | null {
  let parsed = parsedControllerSelectors.get(ls);
  if (parsed === undefined) {
    try {
      const other = labelSelectorAsSelector(ls);
      parsed = other.nothing ? null : other;
    } catch {
      // An invalid selector adds nothing.
      parsed = null;
    }
    parsedControllerSelectors.set(ls, parsed);
  }
  return parsed;
}

/** DefaultSelector when only the controller contributes, per LabelSelector object. */
const controllerOnlySelectors = new WeakMap<object, Selector>();

function controllerOnlySelector(ls: LabelSelector): Selector {
  let selector = controllerOnlySelectors.get(ls);
  if (!selector) {
    const other = controllerSelector(ls);
    selector = other && other.requirements.length ? { requirements: [...other.requirements] } : everything();
    controllerOnlySelectors.set(ls, selector);
  }
  return selector;
}
