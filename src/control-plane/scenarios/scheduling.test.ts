// Scenario: pods kube-scheduler cannot place. They stay Pending with PodScheduled=False (Unschedulable) and the
// FailedScheduling message kube-scheduler v1.32 builds from the per-node filter reasons and the DefaultPreemption
// post-filter — with the double period kube-scheduler really prints, since the post-filter message is itself a
// FitError text ending in "." appended with " %v." — and a change of the cluster (a new node, a label, an uncordon) requeues and places them.
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/api/types';
import type { TestCluster } from '../testing/test-cluster';
import { defaultNodeConfigs } from '../kubelet/node-config';
import { bootCluster, condition, eventsFor, isPodReady } from './harness';

function pod(name: string, spec: object): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
  };
}

const withCpu = (cpu: string) => ({ containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu } } }] });

describe('scenario: unschedulable pods', () => {
  let tc: TestCluster;
  afterEach(() => tc.close());

  const get = (name: string) => tc.get('pod', 'default', name) as Pod;

  /** Asserts the pod is Pending, unscheduled, with the message on its condition and in a FailedScheduling event. */
  function expectUnschedulable(name: string, message: string): void {
    const p = get(name);
    expect(p.status?.phase).toBe('Pending');
    expect(p.spec?.nodeName).toBeUndefined();
    expect(condition(p.status?.conditions, 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable', message });
    const failed = eventsFor(tc, 'Pod', name).filter((e) => e.reason === 'FailedScheduling');
    expect(failed.length).toBeGreaterThan(0);
    for (const e of failed) expect(e).toMatchObject({ type: 'Warning', message });
    expect(failed[0].source?.component).toBe('default-scheduler');
  }

  const scheduledOn = (name: string) => get(name)?.spec?.nodeName;

  it('a pod requesting more cpu than any node has stays Pending, and runs once a big enough node joins', async () => {
    tc = await bootCluster();
    tc.apply(pod('big', withCpu('8')));
    tc.advance(30_000);
    expectUnschedulable(
      'big',
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    );
    // It stays that way: nothing changed in the cluster.
    tc.advance(10 * 60_000);
    expect(scheduledOn('big')).toBeUndefined();

    tc.cluster.nodes.addNode({ name: 'node-4', cpu: '16', memory: '32Gi', zone: 'zone-a' });
    tc.runUntil(() => get('big').status?.phase === 'Running' && isPodReady(get('big')), 60_000, 'big pod running');
    expect(scheduledOn('big')).toBe('node-4');
    expect(condition(get('big').status?.conditions, 'PodScheduled')).toMatchObject({ status: 'True' });
    expect(eventsFor(tc, 'Pod', 'big').find((e) => e.reason === 'Scheduled')?.message).toBe('Successfully assigned default/big to node-4');
    expect(get('big').status?.qosClass).toBe('Burstable');
  });

  it('a nodeSelector that matches no node: node affinity/selector, and preemption is not helpful', async () => {
    tc = await bootCluster();
    tc.apply(pod('ssd', { nodeSelector: { disktype: 'ssd' } }));
    tc.advance(30_000);
    expectUnschedulable(
      'ssd',
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    );
    // kubectl label node node-2 disktype=ssd
    tc.client.nodes.patch('node-2', 'application/merge-patch+json', { metadata: { labels: { disktype: 'ssd' } } });
    tc.runUntil(() => scheduledOn('ssd') !== undefined, 60_000, 'ssd pod scheduled');
    expect(scheduledOn('ssd')).toBe('node-2');
  });

  it('reasons of different nodes are counted and sorted as kube-scheduler prints them', async () => {
    const nodes = defaultNodeConfigs(3);
    nodes[0] = { ...nodes[0], labels: { 'node-role.kubernetes.io/control-plane': '' }, taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] };
    tc = await bootCluster({ nodes });
    tc.apply(pod('big', withCpu('6')));
    tc.advance(30_000);
    expectUnschedulable(
      'big',
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. ' +
        'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod..',
    );
  });

  it('a Deployment that does not fit: the replicas that fit run, the rest wait', async () => {
    tc = await bootCluster();
    tc.apply({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'heavy', namespace: 'default' },
      spec: {
        replicas: 4,
        selector: { matchLabels: { app: 'heavy' } },
        template: { metadata: { labels: { app: 'heavy' } }, spec: withCpu('3') },
      },
    });
    tc.advance(60_000);
    const pods = tc.client.pods.list({ namespace: 'default', labelSelector: 'app=heavy' }).items;
    expect(pods).toHaveLength(4);
    const running = pods.filter((p) => p.status?.phase === 'Running');
    const pending = pods.filter((p) => p.status?.phase === 'Pending');
    expect(running.map((p) => p.spec?.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
    expect(pending).toHaveLength(1);
    expectUnschedulable(
      pending[0].metadata!.name!,
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
    );
    const d = tc.get('deployment', 'default', 'heavy') as Deployment;
    expect(d.status).toMatchObject({ availableReplicas: 3, unavailableReplicas: 1 });

    // After progressDeadlineSeconds (600 s) without progress the Deployment reports it.
    tc.advance(10 * 60_000);
    const rsName = pending[0].metadata!.ownerReferences![0].name;
    expect(condition((tc.get('deployment', 'default', 'heavy') as Deployment).status?.conditions, 'Progressing')).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: `ReplicaSet "${rsName}" has timed out progressing.`,
    });

    // Scaling down frees nothing needed; scaling down to 3 deletes the Pending pod first (it ranks lowest).
    tc.client.deployments.patch('heavy', 'application/merge-patch+json', { spec: { replicas: 3 } }, { namespace: 'default' });
    tc.runUntil(() => tc.get('pod', 'default', pending[0].metadata!.name!) === undefined, 30_000, 'pending pod deleted');
    expect(tc.client.pods.list({ namespace: 'default', labelSelector: 'app=heavy' }).items.map((p) => p.metadata?.name).sort()).toEqual(
      running.map((p) => p.metadata?.name).sort(),
    );
  });

  it('cordoned nodes: were unschedulable, until uncordoned', async () => {
    tc = await bootCluster();
    for (const n of ['node-1', 'node-2', 'node-3']) tc.client.nodes.patch(n, 'application/strategic-merge-patch+json', { spec: { unschedulable: true } });
    tc.apply(pod('web', {}));
    tc.advance(30_000);
    expectUnschedulable(
      'web',
      '0/3 nodes are available: 3 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..',
    );
    // The node lifecycle controller taints cordoned nodes.
    expect(tc.client.nodes.get('node-1').spec?.taints).toContainEqual(expect.objectContaining({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }));
    tc.client.nodes.patch('node-3', 'application/strategic-merge-patch+json', { spec: { unschedulable: null } });
    tc.runUntil(() => get('web').status?.phase === 'Running', 60_000, 'pod running after uncordon');
    expect(scheduledOn('web')).toBe('node-3');
  });
});
