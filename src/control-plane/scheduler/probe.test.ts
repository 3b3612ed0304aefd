import { it } from 'vitest';
import { makeNode, makePod, schedulerFixture } from './testing';
import { ScheduleOne } from './schedule-one';
const acc: Record<string, number> = {};
for (const m of ['scheduleOne', 'bindingCycle', 'schedulePod', 'findNodesThatFitPod', 'prioritizeNodes', 'handleSchedulingFailure']) {
  const orig = (ScheduleOne.prototype as any)[m];
  (ScheduleOne.prototype as any)[m] = function (...a: any[]) { const t = performance.now(); try { return orig.apply(this, a); } finally { acc[m] = (acc[m] ?? 0) + performance.now() - t; } };
}
it('probe', async () => {
  const { cluster, scheduler } = await schedulerFixture();
  const zones = ['a', 'b', 'c'];
  for (let i = 0; i < 1000; i++) cluster.client.nodes.create(makeNode(`node-${i}`, { zone: zones[i % 3], cpu: '32', memory: '64Gi' }));
  cluster.runUntilIdle();
  const rs = cluster.client.replicaSets.create({
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
  });
  const owner = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid!, controller: true }];
  let t = performance.now();
  for (let i = 0; i < 10000; i++) cluster.client.pods.create(makePod(`web-${i}`, { cpu: '100m', memory: '128Mi', labels: { app: 'web' }, ownerReferences: owner }));
  console.log('create', performance.now() - t);
  t = performance.now();
  cluster.runUntilIdle();
  console.log('schedule', performance.now() - t, JSON.stringify(acc));
  const counts = new Map<string, number>();
  for (const p of cluster.client.pods.list().items) counts.set(p.spec!.nodeName ?? '-', (counts.get(p.spec!.nodeName ?? '-') ?? 0) + 1);
  const vals = [...counts.values()];
  console.log('nodes used', counts.size, 'min', Math.min(...vals), 'max', Math.max(...vals), 'unscheduled', counts.get('-'));
}, 600_000);
