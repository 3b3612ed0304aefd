// Scenario: PriorityClass and preemption. The Priority admission plugin resolves a pod's class into
// spec.priority (or the globalDefault class, or 0); the API server bootstraps the two system classes; a pod that
// fits nowhere preempts lower-priority pods — victims get DisruptionTarget, a Preempted event and are deleted, the
// preemptor is nominated to the node — and victims whose PodDisruptionBudget would be violated are spared.
import type { Event, Pod } from 'kubernetes-types/core/v1';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStatusError } from '../../shared/api/status';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, eventsFor, isPodReady, podsOf } from './harness';

function errorText(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (isStatusError(err)) return err.status.message ?? '';
    throw err;
  }
  throw new Error('expected the request to be refused');
}

const priorityClass = (name: string, value: number, extra = '') =>
  `apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: ${name}}\nvalue: ${value}\n${extra}`;

const cpuDeployment = (name: string, replicas: number, cpu: string, priorityClassName?: string) => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      ${priorityClassName ? `priorityClassName: ${priorityClassName}` : ''}
      containers: [{name: c, image: nginx:1.27, resources: {requests: {cpu: "${cpu}"}}}]
`;

const pod = (name: string, spec = '') => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n${spec}  containers: [{name: c, image: nginx:1.27}]\n`;

describe('scenario: PriorityClass and preemption', () => {
  let tc: TestCluster;
  beforeEach(async () => {
    tc = await bootCluster();
  });
  afterEach(() => tc.close());

  const getPod = (name: string) => tc.get('pod', 'default', name) as Pod | undefined;

  it('bootstraps the system priority classes', () => {
    expect(tc.get('priorityclass', undefined, 'system-node-critical')).toMatchObject({
      value: 2000001000,
      preemptionPolicy: 'PreemptLowerPriority',
      description: 'Used for system critical pods that must not be moved from their current node.',
    });
    expect(tc.get('priorityclass', undefined, 'system-cluster-critical')).toMatchObject({ value: 2000000000, preemptionPolicy: 'PreemptLowerPriority' });
    tc.apply(pod('critical', '  priorityClassName: system-node-critical\n'));
    expect(getPod('critical')!.spec).toMatchObject({ priority: 2000001000, priorityClassName: 'system-node-critical' });
  });

  it('resolves priorityClassName at admission, with the real refusals', () => {
    tc.apply(priorityClass('high', 1000000, 'preemptionPolicy: Never\n'));
    tc.apply(pod('vip', '  priorityClassName: high\n'));
    expect(getPod('vip')!.spec).toMatchObject({ priority: 1000000, preemptionPolicy: 'Never' });
    tc.apply(pod('plain'));
    expect(getPod('plain')!.spec!.priority).toBe(0);
    expect(getPod('plain')!.spec!.priorityClassName).toBeUndefined();
    expect(errorText(() => tc.apply(pod('lost', '  priorityClassName: nope\n')))).toBe('pods "lost" is forbidden: no PriorityClass with name nope was found');
    expect(errorText(() => tc.apply(pod('liar', '  priorityClassName: high\n  priority: 5\n')))).toBe(
      'pods "liar" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000000 from the given PriorityClass name',
    );
  });

  it('gives pods without a class the globalDefault one, and allows only one default', () => {
    tc.apply(priorityClass('standard', 1000, 'globalDefault: true\n'));
    expect(errorText(() => tc.apply(priorityClass('other', 5, 'globalDefault: true\n')))).toBe(
      'priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass standard is already marked as default. Only one default can exist',
    );
    tc.apply(pod('plain'));
    expect(getPod('plain')!.spec).toMatchObject({ priorityClassName: 'standard', priority: 1000, preemptionPolicy: 'PreemptLowerPriority' });
  });

  it('preempts a lower-priority pod: DisruptionTarget, Preempted event, nominatedNodeName, then runs there', () => {
    tc.apply(priorityClass('high', 1000000));
    // One 3-cpu pod per 4-cpu node: nothing else of that size fits.
    tc.apply(cpuDeployment('low', 3, '3'));
    tc.runUntil(() => podsOf(tc, 'default', 'app=low').filter(isPodReady).length === 3, 60_000, 'low pods ready');
    tc.apply(`apiVersion: v1\nkind: Pod\nmetadata: {name: urgent}\nspec:\n  priorityClassName: high\n  containers: [{name: c, image: nginx:1.27, resources: {requests: {cpu: "3"}}}]\n`);
    const urgent = getPod('urgent')!;
    tc.runUntil(() => !!getPod('urgent')?.status?.nominatedNodeName, 60_000, 'nominated');
    const node = getPod('urgent')!.status!.nominatedNodeName!;
    const victim = podsOf(tc, 'default', 'app=low').find((p) => p.spec!.nodeName === node && p.metadata!.deletionTimestamp)!;
    expect(victim).toBeDefined();
    expect(victim.status!.conditions!.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod',
    });
    const preempted = eventsFor(tc, 'Pod', victim.metadata!.name!).find((e: Event) => e.reason === 'Preempted')!;
    expect(preempted).toMatchObject({ type: 'Normal', message: `Preempted by pod ${urgent.metadata!.uid} on node ${node}` });
    tc.runUntil(() => getPod('urgent')?.spec?.nodeName !== undefined && isPodReady(getPod('urgent')!), 120_000, 'urgent running');
    expect(getPod('urgent')!.spec!.nodeName).toBe(node);
  });

  it('spares a victim whose PodDisruptionBudget allows no disruption', () => {
    tc.apply(priorityClass('high', 1000000));
    tc.apply(cpuDeployment('guarded', 1, '3'));
    tc.apply(`apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: guarded}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: guarded}}\n`);
    tc.apply(cpuDeployment('spare', 2, '3'));
    tc.runUntil(
      () => podsOf(tc, 'default', 'app in (guarded,spare)').filter(isPodReady).length === 3 && (tc.get('poddisruptionbudget', 'default', 'guarded') as { status?: { currentHealthy?: number } } | undefined)?.status?.currentHealthy === 1,
      60_000,
      'all ready',
    );
    const guardedNode = podsOf(tc, 'default', 'app=guarded')[0].spec!.nodeName;
    tc.apply(`apiVersion: v1\nkind: Pod\nmetadata: {name: urgent}\nspec:\n  priorityClassName: high\n  containers: [{name: c, image: nginx:1.27, resources: {requests: {cpu: "3"}}}]\n`);
    tc.runUntil(() => !!getPod('urgent')?.status?.nominatedNodeName, 60_000, 'nominated');
    expect(getPod('urgent')!.status!.nominatedNodeName).not.toBe(guardedNode);
    expect(podsOf(tc, 'default', 'app=guarded').every((p) => !p.metadata!.deletionTimestamp)).toBe(true);
    expect(podsOf(tc, 'default', 'app=spare').filter((p) => p.metadata!.deletionTimestamp)).toHaveLength(1);
  });
});
