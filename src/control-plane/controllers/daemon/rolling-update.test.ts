import type { DaemonSet } from 'kubernetes-types/apps/v1';
import type { Node, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { findUpdatedPodsOnNode, planRollingUpdate, updatedDesiredNodeCounts } from './rolling-update';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const nodes: Node[] = ['node-a', 'node-b', 'node-c'].map((name) => ({ metadata: { name } }));

function ds(maxUnavailable: number | string, maxSurge: number | string, minReadySeconds = 0): DaemonSet {
  return {
    metadata: { name: 'd', namespace: 'default' },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      minReadySeconds,
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c' }] } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable, maxSurge } },
    },
  };
}

function pod(name: string, node: string, hash: string, ready: boolean, readySince = '2026-01-01T00:00:00Z'): Pod {
  return {
    metadata: { name, labels: { a: 'b', 'controller-revision-hash': hash }, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { containers: [], nodeName: node },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: readySince }] },
  };
}

/** nodeToDaemonPods with one pod per node given as [hash, ready]. */
function layout(spec: Record<string, [string, boolean][]>): Map<string, Pod[]> {
  return new Map(Object.entries(spec).map(([node, pods]) => [node, pods.map(([hash, ready], i) => pod(`${node}-${hash}-${i}`, node, hash, ready))]));
}

describe('planRollingUpdate without surge', () => {
  it('deletes one available old pod at a time with maxUnavailable 1, the next only once the new one is available', () => {
    const allOld = layout({ 'node-a': [['old', true]], 'node-b': [['old', true]], 'node-c': [['old', true]] });
    expect(planRollingUpdate(ds(1, 0), nodes, allOld, 'new', NOW)).toMatchObject({ podsToDelete: ['node-a-old-0'], nodesToCreate: [] });
    // node-a was emptied and awaits its new pod: nothing more.
    const emptied = layout({ 'node-b': [['old', true]], 'node-c': [['old', true]] });
    expect(planRollingUpdate(ds(1, 0), nodes, emptied, 'new', NOW).podsToDelete).toEqual([]);
    // node-a's new pod is not ready yet: still nothing.
    const starting = layout({ 'node-a': [['new', false]], 'node-b': [['old', true]], 'node-c': [['old', true]] });
    expect(planRollingUpdate(ds(1, 0), nodes, starting, 'new', NOW).podsToDelete).toEqual([]);
    // Available: the next node goes.
    const next = layout({ 'node-a': [['new', true]], 'node-b': [['old', true]], 'node-c': [['old', true]] });
    expect(planRollingUpdate(ds(1, 0), nodes, next, 'new', NOW).podsToDelete).toEqual(['node-b-old-0']);
    expect(planRollingUpdate(ds(2, 0), nodes, next, 'new', NOW).podsToDelete).toEqual(['node-b-old-0', 'node-c-old-0']);
  });

  it('replaces an unavailable old pod at once, counting it against maxUnavailable', () => {
    const broken = layout({ 'node-a': [['old', true]], 'node-b': [['old', false]], 'node-c': [['old', true]] });
    expect(planRollingUpdate(ds(1, 0), nodes, broken, 'new', NOW).podsToDelete).toEqual(['node-b-old-0']);
    expect(planRollingUpdate(ds(2, 0), nodes, broken, 'new', NOW).podsToDelete).toEqual(['node-b-old-0', 'node-a-old-0']);
  });

  it('respects minReadySeconds: a pod ready for less is not available', () => {
    const justReady = new Map([
      ['node-a', [pod('a-new', 'node-a', 'new', true, '2026-01-01T00:09:58Z')]],
      ['node-b', [pod('b-old', 'node-b', 'old', true)]],
      ['node-c', [pod('c-old', 'node-c', 'old', true)]],
    ]);
    expect(planRollingUpdate(ds(1, 0, 5), nodes, justReady, 'new', NOW).podsToDelete).toEqual([]);
    expect(planRollingUpdate(ds(1, 0, 1), nodes, justReady, 'new', NOW).podsToDelete).toEqual(['b-old']);
  });
});

describe('planRollingUpdate with surge', () => {
  it('creates the new pod beside the old one, maxSurge nodes at a time, and deletes the old once the new is available', () => {
    const allOld = layout({ 'node-a': [['old', true]], 'node-b': [['old', true]], 'node-c': [['old', true]] });
    expect(planRollingUpdate(ds(0, 1), nodes, allOld, 'new', NOW)).toMatchObject({ podsToDelete: [], nodesToCreate: ['node-a'] });
    const surging = layout({ 'node-a': [['old', true], ['new', false]], 'node-b': [['old', true]], 'node-c': [['old', true]] });
    expect(planRollingUpdate(ds(0, 1), nodes, surging, 'new', NOW)).toMatchObject({ podsToDelete: [], nodesToCreate: [] });
    const replaced = layout({ 'node-a': [['old', true], ['new', true]], 'node-b': [['old', true]], 'node-c': [['old', true]] });
    expect(planRollingUpdate(ds(0, 1), nodes, replaced, 'new', NOW)).toMatchObject({ podsToDelete: ['node-a-old-0'], nodesToCreate: ['node-b'] });
    expect(planRollingUpdate(ds(0, '100%'), nodes, allOld, 'new', NOW).nodesToCreate).toEqual(['node-a', 'node-b', 'node-c']);
  });

  it('surges at once onto a node whose old pod is unavailable, beyond maxSurge', () => {
    const broken = layout({ 'node-a': [['old', true], ['new', false]], 'node-b': [['old', false]], 'node-c': [['old', true]] });
    expect(planRollingUpdate(ds(0, 1), nodes, broken, 'new', NOW)).toMatchObject({ podsToDelete: [], nodesToCreate: ['node-b'] });
  });
});

describe('counts and per-node pods', () => {
  it('falls back to maxUnavailable 1 when neither surge nor unavailability is allowed, and fills empty nodes', () => {
    const m = new Map<string, Pod[]>();
    expect(updatedDesiredNodeCounts(ds(0, 0), nodes, m)).toEqual({ maxSurge: 0, maxUnavailable: 1, desiredNumberScheduled: 3 });
    expect([...m.keys()].sort()).toEqual(['node-a', 'node-b', 'node-c']);
    expect(updatedDesiredNodeCounts(ds('50%', 0), nodes, new Map()).maxUnavailable).toBe(2);
    expect(() => updatedDesiredNodeCounts(ds('x', 0), nodes, new Map())).toThrow(/^invalid value for MaxUnavailable: invalid value for IntOrString/);
  });

  it('finds at most one new and one old pod per node, ignoring pods being deleted', () => {
    const d = ds(1, 0);
    const old = pod('o', 'n', 'old', true);
    const fresh = pod('f', 'n', 'new', true);
    expect(findUpdatedPodsOnNode(d, [old, fresh], 'new')).toEqual({ newPod: fresh, oldPod: old, ok: true });
    expect(findUpdatedPodsOnNode(d, [old, pod('o2', 'n', 'old', true)], 'new').ok).toBe(false);
    const deleting = { ...old, metadata: { ...old.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    expect(findUpdatedPodsOnNode(d, [deleting, fresh], 'new')).toEqual({ newPod: fresh, oldPod: undefined, ok: true });
  });
});
