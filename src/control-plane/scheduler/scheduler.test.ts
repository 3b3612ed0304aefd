import { describe, expect, it } from 'vitest';
import { makeNode, makePod, schedulerFixture } from './testing';
import { Client } from '../client/client';
import { Scheduler, schedulerUser } from './scheduler';

describe('Scheduler on a real cluster', () => {
  it('binds a pod through the binding subresource and records the Scheduled event', async () => {
    const { cluster, scheduler, nodeOf, events, reports } = await schedulerFixture();
    for (const n of ['node-1', 'node-2', 'node-3']) cluster.client.nodes.create(makeNode(n));
    cluster.client.pods.create(makePod('web-abc', { cpu: '100m' }));
    cluster.runUntilIdle();
    const node = nodeOf('web-abc');
    expect(['node-1', 'node-2', 'node-3']).toContain(node);
    const pod = cluster.client.pods.get('web-abc', { namespace: 'default' });
    expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    expect(events('web-abc', 'Scheduled')).toEqual([
      { message: `Successfully assigned default/web-abc to ${node}`, count: 1, type: 'Normal', source: 'default-scheduler' },
    ]);
    const decision = scheduler.lastDecision('default/web-abc')!;
    expect(decision).toMatchObject({ result: 'Scheduled', node, bound: true, numAllNodes: 3, feasibleNodes: 3 });
    expect(decision.nodes.filter((n) => n.chosen).map((n) => n.node)).toEqual([node]);
    const chosen = decision.nodes.find((n) => n.chosen)!;
    expect(chosen.total).toBe(Math.max(...decision.nodes.map((n) => n.total ?? 0)));
    expect(chosen.scores!.map((s) => s.plugin)).toEqual(expect.arrayContaining(['NodeResourcesFit', 'TaintToleration', 'NodeResourcesBalancedAllocation']));
    const types = reports().map((e) => e.data.type);
    expect(types).toEqual(['schedule.attempt', 'schedule.bound']);
    await cluster.close();
  });

  it('records each scored node under its own name on a cluster of many nodes', async () => {
    const { cluster, scheduler } = await schedulerFixture();
    // node-i has i + 1 cpus, so NodeResourcesFit scores every node differently (its memory share is the same).
    for (let i = 0; i < 24; i++) cluster.client.nodes.create(makeNode(`node-${i}`, { cpu: String(i + 1), memory: '32Gi' }));
    cluster.runUntilIdle();
    cluster.client.pods.create(makePod('web', { cpu: '100m', memory: '128Mi' }));
    cluster.runUntilIdle();
    const scored = scheduler.lastDecision('default/web')!.nodes.filter((n) => n.scores);
    expect(scored.length).toBe(24);
    const memoryScore = Math.trunc(((32 * 1024 - 128) * 100) / (32 * 1024));
    for (const n of scored) {
      const milliCPU = (Number(n.node.slice('node-'.length)) + 1) * 1000;
      const cpuScore = Math.trunc(((milliCPU - 100) * 100) / milliCPU);
      expect(n.scores!.find((s) => s.plugin === 'NodeResourcesFit')!.raw, n.node).toBe(Math.trunc((cpuScore + memoryScore) / 2));
    }
  });

  it('reports a pod requesting more cpu than any node exactly as kube-scheduler does', async () => {
    const { cluster, scheduler, nodeOf, events } = await schedulerFixture();
    for (const n of ['node-1', 'node-2', 'node-3']) cluster.client.nodes.create(makeNode(n, { cpu: '2' }));
    cluster.client.pods.create(makePod('big', { cpu: '3' }));
    cluster.runUntilIdle();
    expect(nodeOf('big')).toBeUndefined();
    const message =
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..';
    expect(events('big', 'FailedScheduling')).toEqual([{ message, count: 1, type: 'Warning', source: 'default-scheduler' }]);
    const cond = cluster.client.pods.get('big', { namespace: 'default' }).status?.conditions?.find((c) => c.type === 'PodScheduled');
    expect(cond).toMatchObject({ status: 'False', reason: 'Unschedulable', message });
    expect(scheduler.whereIs('default/big')).toBe('unschedulablePods');
    const decision = scheduler.lastDecision('default/big')!;
    expect(decision.result).toBe('Unschedulable');
    expect(decision.nodes.map((n) => n.filtered)).toEqual([1, 2, 3].map(() => ({ plugin: 'NodeResourcesFit', code: 'Unschedulable', reasons: ['Insufficient cpu'] })));
    await cluster.close();
  });

  it('counts an untolerated control-plane taint and insufficient cpu separately, sorted', async () => {
    const { cluster, events } = await schedulerFixture();
    cluster.client.nodes.create(makeNode('control-plane', { cpu: '8', taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }));
    cluster.client.nodes.create(makeNode('node-1', { cpu: '2' }));
    cluster.client.nodes.create(makeNode('node-2', { cpu: '2' }));
    cluster.client.pods.create(makePod('big', { cpu: '3' }));
    cluster.runUntilIdle();
    expect(events('big', 'FailedScheduling').map((e) => e.message)).toEqual([
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. ' +
        'preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod..',
    ]);
    await cluster.close();
  });

  it('says "no nodes available to schedule pods" in an empty cluster and retries with backoff', async () => {
    const { cluster, nodeOf, events } = await schedulerFixture();
    cluster.client.pods.create(makePod('lonely'));
    cluster.runUntilIdle({ maxTimeMs: 30_000 });
    const failed = events('lonely', 'FailedScheduling');
    expect(failed).toHaveLength(1);
    expect(failed[0].message).toBe('no nodes available to schedule pods');
    // 1 s, 2 s, 4 s, 8 s, then 10 s: the attempts are folded into one Event.
    expect(failed[0].count).toBeGreaterThanOrEqual(5);
    cluster.client.nodes.create(makeNode('node-1'));
    cluster.runUntil(() => nodeOf('lonely') !== undefined, 15_000);
    expect(nodeOf('lonely')).toBe('node-1');
    await cluster.close();
  });

  it('requeues an unschedulable pod when a node that fits is added', async () => {
    const { cluster, scheduler, nodeOf } = await schedulerFixture();
    cluster.client.nodes.create(makeNode('small', { cpu: '1' }));
    cluster.client.pods.create(makePod('big', { cpu: '2' }));
    cluster.runUntilIdle();
    expect(scheduler.whereIs('default/big')).toBe('unschedulablePods');
    const attempts = scheduler.decisions('default/big').length;
    // A node that still does not fit is not worth a retry (NodeResourcesFit's queueing hint says QueueSkip).
    cluster.client.nodes.create(makeNode('also-small', { cpu: '1' }));
    cluster.runUntilIdle({ maxTimeMs: 60_000 });
    expect(scheduler.decisions('default/big')).toHaveLength(attempts);
    cluster.client.nodes.create(makeNode('large', { cpu: '4' }));
    cluster.runUntil(() => nodeOf('big') !== undefined, 15_000);
    expect(nodeOf('big')).toBe('large');
    await cluster.close();
  });

  it('retries unschedulable pods after 5 minutes even without a relevant event', async () => {
    const { cluster, scheduler } = await schedulerFixture();
    cluster.client.nodes.create(makeNode('small', { cpu: '1' }));
    cluster.client.pods.create(makePod('big', { cpu: '2' }));
    cluster.runUntilIdle();
    const t0 = cluster.clock.now();
    cluster.runUntil(() => scheduler.decisions('default/big').length === 2, 10 * 60_000);
    const elapsed = scheduler.decisions('default/big')[1].time - t0;
    expect(elapsed).toBeGreaterThan(5 * 60_000);
    expect(elapsed).toBeLessThanOrEqual(5 * 60_000 + 30_000);
    await cluster.close();
  });

  it('spreads 3 replicas of a ReplicaSet over 3 nodes', async () => {
    const { cluster, nodeOf } = await schedulerFixture();
    for (const n of ['node-1', 'node-2', 'node-3']) cluster.client.nodes.create(makeNode(n));
    const rs = cluster.client.replicaSets.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    cluster.runUntilIdle();
    const owner = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid!, controller: true }];
    for (const n of ['web-a', 'web-b', 'web-c']) cluster.client.pods.create(makePod(n, { labels: { app: 'web' }, ownerReferences: owner }));
    cluster.runUntilIdle();
    expect(new Set(['web-a', 'web-b', 'web-c'].map((n) => nodeOf(n)))).toEqual(new Set(['node-1', 'node-2', 'node-3']));
    await cluster.close();
  });

  it('honours nodeSelector', async () => {
    const { cluster, nodeOf, events } = await schedulerFixture();
    cluster.client.nodes.create(makeNode('node-1'));
    cluster.client.nodes.create(makeNode('node-2', { labels: { disktype: 'ssd' } }));
    cluster.client.nodes.create(makeNode('node-3'));
    cluster.client.pods.create(makePod('db', { extra: { nodeSelector: { disktype: 'ssd' } } }));
    cluster.client.pods.create(makePod('gpu', { extra: { nodeSelector: { accelerator: 'gpu' } } }));
    cluster.runUntilIdle();
    expect(nodeOf('db')).toBe('node-2');
    expect(nodeOf('gpu')).toBeUndefined();
    expect(events('gpu', 'FailedScheduling').map((e) => e.message)).toEqual([
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling..",
    ]);
    // Labelling a node is a NodeUpdate(label) event: NodeAffinity's hint requeues the pod.
    const n3 = cluster.client.nodes.get('node-3');
    cluster.client.nodes.update({ ...n3, metadata: { ...n3.metadata, labels: { ...n3.metadata.labels, accelerator: 'gpu' } } });
    cluster.runUntil(() => nodeOf('gpu') !== undefined, 15_000);
    expect(nodeOf('gpu')).toBe('node-3');
    await cluster.close();
  });

  it('a cordoned node takes no pods', async () => {
    const { cluster, nodeOf, events } = await schedulerFixture();
    cluster.client.nodes.create(makeNode('node-1', { unschedulable: true }));
    cluster.client.pods.create(makePod('p'));
    cluster.runUntilIdle();
    expect(nodeOf('p')).toBeUndefined();
    expect(events('p', 'FailedScheduling')[0].message).toBe(
      '0/1 nodes are available: 1 node(s) were unschedulable. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling..',
    );
    const n = cluster.client.nodes.get('node-1');
    cluster.client.nodes.update({ ...n, spec: { ...n.spec, unschedulable: false } });
    cluster.runUntil(() => nodeOf('p') !== undefined, 15_000);
    expect(nodeOf('p')).toBe('node-1');
    await cluster.close();
  });

  it('after a restart rebuilds its cache from the informers and never binds a pod twice', async () => {
    const { cluster, scheduler, nodeOf, reports } = await schedulerFixture();
    cluster.client.nodes.create(makeNode('node-1', { cpu: '1' }));
    cluster.client.nodes.create(makeNode('node-2', { cpu: '1' }));
    cluster.client.pods.create(makePod('a', { cpu: '600m' }));
    cluster.client.pods.create(makePod('b', { cpu: '600m' }));
    cluster.runUntilIdle();
    const before = { a: nodeOf('a'), b: nodeOf('b') };
    expect(before.a).not.toBe(before.b);
    scheduler.stop();
    cluster.client.pods.create(makePod('c', { cpu: '600m' }));
    cluster.runUntilIdle();
    expect(nodeOf('c')).toBeUndefined();
    scheduler.start();
    cluster.runUntilIdle();
    // The rebuilt cache still accounts a and b: c fits nowhere.
    expect(nodeOf('c')).toBeUndefined();
    expect(scheduler.cacheSummary()).toMatchObject({ nodes: 2, pods: 2, assumedPods: 0 });
    expect({ a: nodeOf('a'), b: nodeOf('b') }).toEqual(before);
    const bindings = reports().filter((e) => e.data.type === 'schedule.bound');
    expect(bindings.map((e) => e.data.pod).sort()).toEqual(['default/a', 'default/b']);
    await cluster.close();
  });

  it('two schedulers racing for the same pod: the second bind gets 409 and the pod is dropped', async () => {
    const { cluster, scheduler: first, nodeOf, reports } = await schedulerFixture();
    const second = new Scheduler({
      client: new Client(cluster.endpoint.connect('kube-scheduler-2'), schedulerUser),
      clock: cluster.clock,
      trace: cluster.trace,
      rng: cluster.rng,
    });
    second.start();
    for (const n of ['node-1', 'node-2', 'node-3']) cluster.client.nodes.create(makeNode(n));
    cluster.runUntilIdle();
    cluster.client.pods.create(makePod('contested'));
    cluster.runUntilIdle();
    expect(nodeOf('contested')).toBeDefined();
    const outcomes = [first, second].map((s) => s.lastDecision('default/contested')?.bound).sort();
    expect(outcomes).toEqual([false, true]);
    const rejected = reports().filter((e) => e.data.type === 'schedule.failed');
    expect(rejected).toHaveLength(1);
    expect(rejected[0].data).toMatchObject({ reason: 'BindingRejected' });
    expect(String(rejected[0].data.message)).toContain('is already assigned to node');
    expect(first.whereIs('default/contested')).toBeUndefined();
    expect(second.whereIs('default/contested')).toBeUndefined();
    const pod = cluster.client.pods.get('contested', { namespace: 'default' });
    expect(pod.status?.conditions?.filter((c) => c.type === 'PodScheduled').map((c) => c.status)).toEqual(['True']);
    second.stop();
    await cluster.close();
  });

  it('ignores pods for another scheduler and pods that already name a node', async () => {
    const { cluster, scheduler, nodeOf } = await schedulerFixture();
    cluster.client.nodes.create(makeNode('node-1'));
    cluster.client.nodes.create(makeNode('node-2'));
    cluster.client.pods.create(makePod('custom', { extra: { schedulerName: 'my-scheduler' } }));
    cluster.client.pods.create(makePod('pinned', { extra: { nodeName: 'node-2' } }));
    cluster.runUntilIdle();
    expect(nodeOf('custom')).toBeUndefined();
    expect(nodeOf('pinned')).toBe('node-2');
    expect(scheduler.decisions('default/custom')).toEqual([]);
    expect(scheduler.decisions('default/pinned')).toEqual([]);
    expect(scheduler.nodeUsage('node-2')?.pods).toBe(1);
    await cluster.close();
  });

  it('frees the room of a deleted pod and schedules the waiting one', async () => {
    const { cluster, nodeOf } = await schedulerFixture();
    cluster.client.nodes.create(makeNode('node-1', { cpu: '1' }));
    cluster.client.pods.create(makePod('first', { cpu: '800m' }));
    cluster.runUntilIdle();
    cluster.client.pods.create(makePod('second', { cpu: '800m' }));
    cluster.runUntilIdle();
    expect(nodeOf('second')).toBeUndefined();
    cluster.client.pods.delete('first', { namespace: 'default', gracePeriodSeconds: 0 });
    cluster.runUntil(() => nodeOf('second') !== undefined, 15_000);
    expect(nodeOf('second')).toBe('node-1');
    await cluster.close();
  });

  it('preempts a lower-priority pod for a higher-priority one', async () => {
    const { cluster, scheduler, nodeOf, events } = await schedulerFixture();
    cluster.client.nodes.create(makeNode('node-1', { cpu: '1' }));
    cluster.client.pods.create(makePod('low', { cpu: '800m', priority: 0 }));
    cluster.runUntilIdle();
    expect(nodeOf('low')).toBe('node-1');
    const low = cluster.client.pods.get('low', { namespace: 'default' });
    // The Priority admission plugin resolves the class into spec.priority (a bare priority would be refused).
    cluster.client.priorityClasses.create({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 });
    const high = cluster.client.pods.create(makePod('high', { cpu: '800m', extra: { priorityClassName: 'high' } }));
    cluster.runUntilIdle();
    // The victim is marked and deleted gracefully; the preemptor is nominated and waits.
    const victim = cluster.client.pods.get('low', { namespace: 'default' });
    expect(victim.metadata.uid).toBe(low.metadata.uid);
    expect(victim.metadata.deletionTimestamp).toBeDefined();
    expect(victim.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'default-scheduler: preempting to accommodate a higher priority pod',
    });
    expect(events('low', 'Preempted').map((e) => e.message)).toEqual([`Preempted by pod ${high.metadata.uid} on node node-1`]);
    expect(cluster.client.pods.get('high', { namespace: 'default' }).status?.nominatedNodeName).toBe('node-1');
    expect(nodeOf('high')).toBeUndefined();
    // There is no kubelet here: finish the victim's termination as it would.
    cluster.client.pods.delete('low', { namespace: 'default', gracePeriodSeconds: 0 });
    cluster.runUntil(() => nodeOf('high') !== undefined, 30_000);
    expect(nodeOf('high')).toBe('node-1');
    // The first attempt nominated node-1 and said nothing about preemption, as upstream.
    const first = scheduler.decisions('default/high')[0];
    expect(first).toMatchObject({ result: 'Unschedulable', nominatedNode: 'node-1', message: '0/1 nodes are available: 1 Insufficient cpu.' });
    await cluster.close();
  });
});
