// helper.DefaultSelector (pkg/scheduler/framework/plugins/helper/spread.go): the selector of the pods "like"
// this one — the Services selecting it plus its controlling ReplicationController, ReplicaSet or StatefulSet —
// which PodTopologySpread's system default constraints spread over.
import type { Pod } from 'kubernetes-types/core/v1';
import { everything, labelSelectorAsSelector, matchesSet, type Requirement, type Selector } from '../../../../shared/lib/labels';
import type { Handle } from '../../framework/handle';

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
  const toRequirements = (set: Record<string, string>): Requirement[] =>
    Object.keys(set)
      .sort()
      .map((k) => ({ key: k, operator: '=', values: [set[k]] }));
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
      try {
        const other = labelSelectorAsSelector(obj.spec.selector);
        if (!other.nothing) selector = { requirements: [...selector.requirements, ...other.requirements] };
      } catch {
        // An invalid selector adds nothing.
      }
    }
  }
  return selector.requirements.length ? selector : everything();
}
