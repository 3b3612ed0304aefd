// describe.go's PodDisruptionBudget and PriorityClass describers.
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';
import type { PriorityClass } from 'kubernetes-types/scheduling/v1';
import type { KubeObject } from '../../shared/api/types';
import { labelSelectorAsSelector, selectorToString } from '../../shared/lib/labels';
import type { Describer } from './context';
import { describeEvents, searchEvents } from './events';
import { safeEvents } from './pod';
import { formatLabels, LEVEL_0, LEVEL_2, tabbedString } from './writer';

/** describePodDisruptionBudget: the budget, its selector and the four status counts. */
export const describePodDisruptionBudget: Describer = (s, namespace, name) => {
  const pdb = s.client.podDisruptionBudgets.get(name, { namespace }) as PodDisruptionBudget & KubeObject;
  const events = s.showEvents
    ? safeEvents(() => searchEvents(s.client, { name, namespace, kind: 'PodDisruptionBudget', uid: pdb.metadata.uid }))
    : undefined;
  return tabbedString((w) => {
    const spec = pdb.spec ?? {};
    w.write(LEVEL_0, `Name:\t${pdb.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${pdb.metadata.namespace ?? ''}\n`);
    if (spec.minAvailable !== undefined && spec.minAvailable !== null) w.write(LEVEL_0, `Min available:\t${String(spec.minAvailable)}\n`);
    else if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) w.write(LEVEL_0, `Max unavailable:\t${String(spec.maxUnavailable)}\n`);
    let selector: string;
    try {
      selector = selectorToString(labelSelectorAsSelector(spec.selector));
    } catch {
      selector = '<unset>';
    }
    w.write(LEVEL_0, `Selector:\t${selector}\n`);
    const st = pdb.status;
    w.write(LEVEL_0, 'Status:\n');
    w.write(LEVEL_2, `Allowed disruptions:\t${st?.disruptionsAllowed ?? 0}\n`);
    w.write(LEVEL_2, `Current:\t${st?.currentHealthy ?? 0}\n`);
    w.write(LEVEL_2, `Desired:\t${st?.desiredHealthy ?? 0}\n`);
    w.write(LEVEL_2, `Total:\t${st?.expectedPods ?? 0}\n`);
    if (events) describeEvents(events, w, s.now);
  });
};

/** describePriorityClass. */
export const describePriorityClass: Describer = (s, _namespace, name) => {
  const pc = s.client.priorityClasses.get(name) as PriorityClass & KubeObject;
  const events = s.showEvents ? safeEvents(() => searchEvents(s.client, { name, kind: 'PriorityClass', uid: pc.metadata.uid })) : undefined;
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${pc.metadata.name}\n`);
    w.write(LEVEL_0, `Value:\t${pc.value}\n`);
    w.write(LEVEL_0, `GlobalDefault:\t${pc.globalDefault ?? false}\n`);
    w.write(LEVEL_0, `PreemptionPolicy:\t${pc.preemptionPolicy ?? ''}\n`);
    w.write(LEVEL_0, `Description:\t${pc.description ?? ''}\n`);
    w.write(LEVEL_0, `Annotations:\t${formatLabels(pc.metadata.annotations)}\n`);
    if (events) describeEvents(events, w, s.now);
  });
};
