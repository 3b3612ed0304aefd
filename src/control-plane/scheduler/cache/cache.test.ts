import { describe, expect, it } from 'vitest';
import { labelSelectorAsSelector } from '../../../shared/lib/labels';
import { deepFreeze } from '../../../shared/lib/deep-freeze';
import { newPodInfo, NodeInfo, selectorCountKey, updatedPodInfo, type PodObject } from '../framework/types';
import { makeNode, makePod, podInfoOf } from '../testing';
import { SchedulerCache } from './cache';

describe('SchedulerCache', () => {
  it('accounts assumed pods until confirmed, and forgets them when the binding fails', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('n1', { cpu: '2' }));
    const p = podInfoOf(makePod('p', { cpu: '500m' }), 'n1');
    cache.assumePod(p, 'n1');
    expect(cache.getNodeInfo('n1')!.requested.milliCPU).toBe(500);
    expect(cache.isAssumedPod(p.key)).toBe(true);
    cache.forgetPod(p.key);
    expect(cache.getNodeInfo('n1')!.requested.milliCPU).toBe(0);
    cache.assumePod(p, 'n1');
    cache.addPod(p);
    expect(cache.isAssumedPod(p.key)).toBe(false);
    expect(cache.getNodeInfo('n1')!.pods).toHaveLength(1);
    cache.removePod(p.key);
    expect(cache.getNodeInfo('n1')!.pods).toHaveLength(0);
  });

  it('lists nodes interleaving zones and keeps pods of a deleted node until they go', () => {
    const cache = new SchedulerCache();
    for (const [n, z] of [['a1', 'a'], ['a2', 'a'], ['b1', 'b'], ['c1', 'c'], ['a3', 'a']]) cache.addNode(makeNode(n, { zone: z }));
    expect(cache.nodeInfos().map((n) => n.name)).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
    cache.addPod(podInfoOf(makePod('p'), 'b1'));
    cache.removeNode('b1');
    expect(cache.getNodeInfo('b1')).toBeUndefined();
    expect(cache.nodeInfos().map((n) => n.name)).toEqual(['a1', 'c1', 'a2', 'a3']);
    expect(cache.podCount).toBe(1);
  });

  it('maintains per-domain counts of matching pods incrementally', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('a1', { zone: 'a' }));
    cache.addNode(makeNode('b1', { zone: 'b' }));
    const sel = labelSelectorAsSelector({ matchLabels: { app: 'web' } });
    const key = selectorCountKey(sel, 'default');
    cache.addPod(podInfoOf(makePod('w1', { labels: { app: 'web' } }), 'a1'));
    const counts = cache.topologyPodCounts(sel, 'default', key, 'topology.kubernetes.io/zone');
    expect(Object.fromEntries(counts)).toEqual({ a: 1, b: 0 });
    cache.addPod(podInfoOf(makePod('w2', { labels: { app: 'web' } }), 'b1'));
    cache.addPod(podInfoOf(makePod('other', { labels: { app: 'db' } }), 'b1'));
    cache.removePod('default/w1');
    expect(Object.fromEntries(cache.topologyPodCounts(sel, 'default', key, 'topology.kubernetes.io/zone'))).toEqual({ a: 0, b: 1 });
    expect(cache.getNodeInfo('b1')!.countPodsMatchSelector(sel, 'default', key)).toBe(1);
  });

  it('takes a status update of a bound pod as a replacement that keeps the sums and the pod order', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('n1', { cpu: '4', zone: 'a' }));
    const sel = labelSelectorAsSelector({ matchLabels: { app: 'web' } });
    const key = selectorCountKey(sel, 'default');
    const bound = (name: string) => deepFreeze({ ...makePod(name, { cpu: '500m', labels: { app: 'web' } }), metadata: { name, namespace: 'default', uid: `u-${name}`, labels: { app: 'web' } }, spec: { ...makePod(name, { cpu: '500m' }).spec!, nodeName: 'n1' } }) as PodObject;
    const [a, b, c] = ['a', 'b', 'c'].map(bound);
    for (const p of [a, b, c]) cache.addPod(newPodInfo(p));
    cache.topologyPodCounts(sel, 'default', key, 'topology.kubernetes.io/zone');
    // A status write: a new object sharing the frozen spec and labels.
    const a2 = deepFreeze({ ...a, metadata: { ...a.metadata, resourceVersion: '2' }, status: { phase: 'Running' } }) as PodObject;
    const info = updatedPodInfo(a2, cache.getPod('default/a'));
    expect(info.pod).toBe(a2);
    expect(info.requests).toBe(cache.getPod('default/a')!.requests);
    cache.updatePod(info);
    const ni = cache.getNodeInfo('n1')!;
    // As removePod then addPod order them: the last pod takes the slot, the updated one goes to the end.
    expect(ni.pods.map((p) => p.pod.metadata.name)).toEqual(['c', 'b', 'a']);
    expect(ni.getPod('default/a')!.pod).toBe(a2);
    expect(cache.getPod('default/a')!.pod).toBe(a2);
    expect(ni.requested.milliCPU).toBe(1500);
    expect(ni.countPodsMatchSelector(sel, 'default', key)).toBe(3);
    expect(Object.fromEntries(cache.topologyPodCounts(sel, 'default', key, 'topology.kubernetes.io/zone'))).toEqual({ a: 3 });
    // A change the node counts (new labels) goes through remove and add.
    const a3 = deepFreeze({ ...a2, metadata: { ...a2.metadata, labels: { app: 'db' } } }) as PodObject;
    const info3 = updatedPodInfo(a3, cache.getPod('default/a'));
    expect(info3.pod.metadata.labels).toEqual({ app: 'db' });
    cache.updatePod(info3);
    expect(ni.countPodsMatchSelector(sel, 'default', key)).toBe(2);
    expect(Object.fromEntries(cache.topologyPodCounts(sel, 'default', key, 'topology.kubernetes.io/zone'))).toEqual({ a: 2 });
    expect(ni.requested.milliCPU).toBe(1500);
  });

  it('keeps assumed pods apart: forgotten, confirmed on another node, or removed', () => {
    const cache = new SchedulerCache();
    for (const n of ['n1', 'n2']) cache.addNode(makeNode(n, { cpu: '4', memory: '8Gi' }));
    const pod = makePod('a', { cpu: '500m' });
    const assumed = newPodInfo({ ...pod, spec: { ...pod.spec!, nodeName: 'n1' } } as PodObject);
    cache.assumePod(assumed, 'n1');
    expect(() => cache.assumePod(assumed, 'n1')).toThrow("pod default/a is in the cache, so can't be assumed");
    expect(cache.isAssumedPod('default/a')).toBe(true);
    expect(cache.assumedPodCount).toBe(1);
    cache.forgetPod('default/a');
    expect(cache.podCount).toBe(0);
    expect(cache.getNodeInfo('n1')!.requested.milliCPU).toBe(0);
    // Assumed on n1, bound (by someone else's decision) to n2: the informer's word wins.
    cache.assumePod(assumed, 'n1');
    cache.addPod(newPodInfo({ ...pod, spec: { ...pod.spec!, nodeName: 'n2' } } as PodObject));
    expect(cache.isAssumedPod('default/a')).toBe(false);
    expect(cache.assumedPodCount).toBe(0);
    expect(cache.getNodeInfo('n1')!.requested.milliCPU).toBe(0);
    expect(cache.getNodeInfo('n2')!.requested.milliCPU).toBe(500);
    cache.forgetPod('default/a'); // confirmed: not forgotten
    expect(cache.podCount).toBe(1);
    cache.removePod('default/a');
    expect(cache.podCount).toBe(0);
    expect(cache.getNodeInfo('n2')!.requested.milliCPU).toBe(0);
  });

  it('shares what pods of one template derive from their spec', () => {
    const template = deepFreeze(makePod('t', { cpu: '100m', memory: '64Mi' }));
    const a = deepFreeze({ ...template, metadata: { ...template.metadata, name: 'a', uid: 'ua' } }) as PodObject;
    const b = deepFreeze({ ...template, metadata: { ...template.metadata, name: 'b', uid: 'ub' } }) as PodObject;
    const ia = newPodInfo(a);
    const ib = newPodInfo(b);
    expect(ia.requests).toBe(ib.requests);
    expect(ia.requiredAffinityTerms).toBe(ib.requiredAffinityTerms);
    expect([ia.key, ia.uid, ia.namespace, ia.priority, ia.parseError]).toEqual(['default/a', 'ua', 'default', 0, undefined]);
    expect([ib.key, ib.uid]).toEqual(['default/b', 'ub']);
  });

  it('finds the pods of a node by key below and above the size where it starts indexing them', () => {
    const ni = new NodeInfo();
    const infos = Array.from({ length: 150 }, (_, i) => newPodInfo(makePod(`p${i}`, { cpu: '10m' })));
    for (const [n, pi] of infos.entries()) {
      ni.addPod(pi);
      if (n % 7 === 3) expect(ni.removePod(`default/p${n - 2}`)!.key).toBe(`default/p${n - 2}`);
    }
    const removed = new Set(infos.map((_, n) => n).filter((n) => n % 7 === 3).map((n) => n - 2));
    for (const [n, pi] of infos.entries()) {
      expect(ni.hasPod(pi.key)).toBe(!removed.has(n));
      if (!removed.has(n)) expect(ni.getPod(pi.key)).toBe(pi);
    }
    expect(ni.pods.length).toBe(150 - removed.size);
    expect(ni.requested.milliCPU).toBe(10 * ni.pods.length);
    const copy = ni.clone();
    for (const pi of [...ni.pods]) expect(copy.removePod(pi.key)).toBe(pi);
    expect(copy.pods.length).toBe(0);
    expect(ni.pods.length).toBe(150 - removed.size);
  });
});
