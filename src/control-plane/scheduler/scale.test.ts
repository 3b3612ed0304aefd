import { describe, expect, it } from 'vitest';
import { makeNode, makePod, schedulerFixture } from './testing';

describe('Scheduler at scale', () => {
  it('places 1,500 replicas on 300 nodes (scoring an adaptive share of them), evenly and exactly once', async () => {
    const { cluster, scheduler } = await schedulerFixture();
    const zones = ['a', 'b', 'c'];
    for (let i = 0; i < 300; i++) cluster.client.nodes.create(makeNode(`node-${i}`, { zone: zones[i % 3], cpu: '16', memory: '32Gi' }));
    const rs = cluster.client.replicaSets.create({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const owner = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata.uid!, controller: true }];
    cluster.runUntilIdle();
    for (let i = 0; i < 1500; i++) cluster.client.pods.create(makePod(`web-${i}`, { cpu: '100m', memory: '128Mi', labels: { app: 'web' }, ownerReferences: owner }));
    cluster.runUntilIdle();
    const perNode = new Map<string, number>();
    const perZone = new Map<string, number>();
    for (const p of cluster.client.pods.list({ namespace: 'default' }).items) {
      const node = p.spec?.nodeName;
      expect(node).toBeDefined();
      perNode.set(node!, (perNode.get(node!) ?? 0) + 1);
      const zone = zones[Number(node!.split('-')[1]) % 3];
      perZone.set(zone, (perZone.get(zone) ?? 0) + 1);
    }
    expect(perNode.size).toBe(300);
    expect(Math.max(...perNode.values()) - Math.min(...perNode.values())).toBeLessThanOrEqual(2);
    expect(Math.max(...perZone.values()) - Math.min(...perZone.values())).toBeLessThanOrEqual(3);
    expect(scheduler.cacheSummary()).toEqual({ nodes: 300, pods: 1500, assumedPods: 0 });
    // Large clusters score a share of the nodes: 50% − 300/125 = 48% of 300.
    const decision = scheduler.lastDecision('default/web-1499')!;
    expect(decision.feasibleNodes).toBe(144);
    // The record names the 144 scored nodes (kept as positions in the cache's node list), the chosen one among them.
    const scored = decision.nodes.filter((n) => n.scores);
    expect(new Set(scored.map((n) => n.node)).size).toBe(144);
    expect(scored.every((n) => /^node-\d+$/.test(n.node))).toBe(true);
    const bound = cluster.client.pods.get('web-1499', { namespace: 'default' }).spec?.nodeName;
    expect(scored.filter((n) => n.chosen).map((n) => n.node)).toEqual([bound]);
    expect(scheduler.recentDecisions(10_000).length).toBeLessThanOrEqual(512);
    await cluster.close();
  }, 60_000);
});
