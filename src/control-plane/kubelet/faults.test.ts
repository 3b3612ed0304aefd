import { describe, expect, it } from 'vitest';
import type { Lease } from 'kubernetes-types/coordination/v1';
import { defaultNodeConfigs } from './node-config';
import { kubeletTestBed } from './testing';

const nginxPod = (name: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}}\nspec:\n  containers:\n  - {name: web, image: 'nginx:1.27'}`;

describe('node faults', () => {
  it('a killed node stops heartbeats and pod status updates; on restart it re-runs the pods the API server still has', async () => {
    const tb = await kubeletTestBed();
    const { client, clock } = tb.cluster;
    tb.run(nginxPod('a'));
    tb.run(nginxPod('b'));
    tb.cluster.runUntil(() => tb.pod('a')?.status?.phase === 'Running' && tb.pod('b')?.status?.phase === 'Running', 30_000);
    const bootID = client.nodes.get('node-1').status!.nodeInfo!.bootID;
    tb.nodes.kill('node-1');
    const lease = () => (client.leases.get('node-1', { namespace: 'kube-node-lease' }) as Lease).spec!.renewTime;
    const renewed = lease();
    // While the node is down, pod "a" is removed (as the pod GC would force-delete it).
    client.pods.delete('a', { namespace: 'default', gracePeriodSeconds: 0 });
    clock.advance(120_000);
    expect(lease()).toBe(renewed);
    expect(tb.nodes.get('node-1')!.podKeys()).toEqual([]);
    tb.nodes.restart('node-1');
    tb.cluster.runUntil(() => tb.pod('b')?.status?.containerStatuses?.[0]?.restartCount === 1 && tb.pod('b')?.status?.containerStatuses?.[0]?.ready === true, 30_000);
    expect(tb.nodes.get('node-1')!.podKeys()).toEqual(['default/b']);
    expect(client.nodes.get('node-1').status!.nodeInfo!.bootID).not.toBe(bootID);
    const b = tb.pod('b')!.status!.containerStatuses![0];
    expect(b.lastState?.terminated).toMatchObject({ exitCode: 255, reason: 'Unknown' });
    expect(lease()).not.toBe(renewed);
    await tb.close();
  });

  it('on restart, finishes deleting a pod that was marked for deletion while the node was down', async () => {
    const tb = await kubeletTestBed();
    tb.run(nginxPod('c'));
    tb.cluster.runUntil(() => tb.pod('c')?.status?.phase === 'Running', 30_000);
    tb.nodes.kill('node-1');
    tb.cluster.client.pods.delete('c', { namespace: 'default' });
    tb.cluster.clock.advance(60_000);
    expect(tb.pod('c')?.metadata?.deletionTimestamp).toBeTruthy();
    tb.nodes.restart('node-1');
    tb.cluster.runUntil(() => tb.pod('c') === undefined, 10_000);
    expect(tb.pod('c')).toBeUndefined();
    await tb.close();
  });

  it('a partitioned node keeps running its pods but cannot report; reconnected, it kills pods deleted meanwhile', async () => {
    const tb = await kubeletTestBed();
    const { client, clock } = tb.cluster;
    tb.run(nginxPod('p1'));
    tb.run(`apiVersion: v1\nkind: Pod\nmetadata: {name: p2}\nspec:\n  containers:\n  - {name: c, image: 'busybox:1.36', command: ['sh', '-c', 'sleep 20; exit 1']}`);
    tb.cluster.runUntil(() => tb.pod('p1')?.status?.phase === 'Running' && tb.pod('p2')?.status?.phase === 'Running', 30_000);
    const kubelet = tb.nodes.get('node-1')!;
    tb.nodes.partition('node-1', true);
    const lease = () => (client.leases.get('node-1', { namespace: 'kube-node-lease' }) as Lease).spec!.renewTime;
    const renewed = lease();
    client.pods.delete('p1', { namespace: 'default', gracePeriodSeconds: 0 });
    clock.advance(30_000);
    expect(lease()).toBe(renewed);
    // p2's container exited and restarted on the node, but the API server has not heard of it.
    expect(kubelet.podStatus('default', 'p2')!.containerStatuses![0].restartCount).toBe(1);
    expect(tb.pod('p2')!.status!.containerStatuses![0].restartCount).toBe(0);
    expect(kubelet.podKeys()).toEqual(['default/p1', 'default/p2']);
    tb.nodes.partition('node-1', false);
    clock.advance(1000);
    expect(kubelet.podKeys()).toEqual(['default/p2']);
    expect(tb.pod('p2')!.status!.containerStatuses![0].restartCount).toBe(1);
    clock.advance(10_000);
    expect(lease()).not.toBe(renewed);
    await tb.close();
  });

  it('removeNode stops the kubelet and deletes the Node; addNode registers a new one with the next pod CIDR', async () => {
    const tb = await kubeletTestBed({ nodes: defaultNodeConfigs(2) });
    const { client, clock } = tb.cluster;
    tb.nodes.removeNode('node-2');
    expect(client.nodes.list().items.map((n) => n.metadata.name)).toEqual(['node-1']);
    tb.nodes.addNode({ name: 'node-9', cpu: '2', memory: '4Gi', zone: 'zone-c', labels: { disktype: 'ssd' }, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
    clock.advance(1000);
    const n = client.nodes.get('node-9');
    expect(n.spec?.podCIDR).toBe('10.244.3.0/24');
    expect(n.spec?.taints).toEqual([{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]);
    expect(n.metadata.labels?.disktype).toBe('ssd');
    expect(n.status?.capacity?.memory).toBe('4Gi');
    await tb.close();
  });

  it('rejects a pod that does not fit the node (bound without a scheduler) with OutOfcpu', async () => {
    const tb = await kubeletTestBed();
    tb.run(`apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n  containers:\n  - {name: c, image: nginx, resources: {requests: {cpu: '5'}}}`);
    tb.cluster.runUntil(() => tb.pod('big')?.status?.phase === 'Failed', 5000);
    const p = tb.pod('big')!;
    expect(p.status).toMatchObject({ reason: 'OutOfcpu', message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 5000, used: 0, capacity: 4000" });
    await tb.close();
  });
});
