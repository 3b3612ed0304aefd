import type { DaemonSet } from 'kubernetes-types/apps/v1';
import type { Node, PodSpec, Taint } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { compareByCreationTimestampAndPhase, getUnscheduledPodsWithoutNode, nodeShouldRunDaemonPod, shouldIgnoreNodeUpdate } from './node-should-run';

function node(name: string, labels: Record<string, string> = {}, taints: Taint[] = []): Node {
  return { metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } }, spec: { taints } };
}

function ds(spec: Partial<PodSpec> = {}): DaemonSet {
  return {
    metadata: { name: 'd', namespace: 'default' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c' }], ...spec } } },
  };
}

const run = (n: Node, d: DaemonSet) => nodeShouldRunDaemonPod(n, d);
const both = { shouldRun: true, shouldContinueRunning: true };
const neither = { shouldRun: false, shouldContinueRunning: false };

describe('NodeShouldRunDaemonPod', () => {
  it('runs on every plain node, and on nodes with the conditions DaemonSet pods tolerate (cordoned, pressure, not ready)', () => {
    expect(run(node('n'), ds())).toEqual(both);
    for (const t of [
      { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
    ] as Taint[]) {
      expect(run(node('n', {}, [t]), ds())).toEqual(both);
    }
    // network-unavailable only for hostNetwork pods; PreferNoSchedule never matters.
    const network: Taint = { key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' };
    expect(run(node('n', {}, [network]), ds()).shouldRun).toBe(false);
    expect(run(node('n', {}, [network]), ds({ hostNetwork: true }))).toEqual(both);
    expect(run(node('n', {}, [{ key: 'x', effect: 'PreferNoSchedule' }]), ds())).toEqual(both);
  });

  it('an untolerated NoSchedule taint stops new pods but keeps a running one; NoExecute stops both', () => {
    const noSchedule: Taint = { key: 'dedicated', value: 'db', effect: 'NoSchedule' };
    const noExecute: Taint = { key: 'dedicated', value: 'db', effect: 'NoExecute' };
    expect(run(node('n', {}, [noSchedule]), ds())).toEqual({ shouldRun: false, shouldContinueRunning: true });
    expect(run(node('n', {}, [noExecute]), ds())).toEqual(neither);
    expect(run(node('n', {}, [noSchedule, noExecute]), ds({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db' }] }))).toEqual(both);
    // The unreachable NoSchedule taint the node controller adds is not tolerated: a dead node keeps its pod
    // (NoExecute tolerated) but wants no new one.
    const dead: Taint[] = [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
    ];
    expect(run(node('n', {}, dead), ds())).toEqual({ shouldRun: false, shouldContinueRunning: true });
  });

  it('honours nodeSelector, required node affinity and the template nodeName', () => {
    expect(run(node('n', { disk: 'ssd' }), ds({ nodeSelector: { disk: 'ssd' } }))).toEqual(both);
    expect(run(node('n', { disk: 'hdd' }), ds({ nodeSelector: { disk: 'ssd' } }))).toEqual(neither);
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['special'] }] }],
        },
      },
    };
    expect(run(node('n', { zone: 'b' }), ds({ affinity }))).toEqual(both);
    expect(run(node('n', { zone: 'c' }), ds({ affinity }))).toEqual(neither);
    expect(run(node('special', { zone: 'c' }), ds({ affinity }))).toEqual(both);
    expect(run(node('n'), ds({ nodeName: 'other' }))).toEqual(neither);
    expect(run(node('other'), ds({ nodeName: 'other' }))).toEqual(both);
  });
});

describe('node updates and pod ordering', () => {
  const base: Node = {
    metadata: { name: 'n', resourceVersion: '1', labels: { a: '1' } },
    status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z' }] },
  };

  it('ignores heartbeats but not condition flips, labels or taints', () => {
    const heartbeat: Node = { ...base, metadata: { ...base.metadata, resourceVersion: '2' }, status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:10Z' }] } };
    expect(shouldIgnoreNodeUpdate(base, heartbeat)).toBe(true);
    expect(shouldIgnoreNodeUpdate(base, { ...base, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } })).toBe(false);
    expect(shouldIgnoreNodeUpdate(base, { ...base, metadata: { ...base.metadata, labels: { a: '2' } } })).toBe(false);
    expect(shouldIgnoreNodeUpdate(base, { ...base, spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } })).toBe(false);
  });

  it('orders bound pods first, then oldest, then by name', () => {
    const pod = (name: string, ts: string, nodeName?: string) => ({ metadata: { name, creationTimestamp: ts }, spec: { containers: [], nodeName } });
    const sorted = [pod('c', '2026-01-01T00:00:01Z'), pod('b', '2026-01-01T00:00:05Z', 'n'), pod('a', '2026-01-01T00:00:05Z', 'n'), pod('d', '2026-01-01T00:00:02Z', 'n')].sort(
      compareByCreationTimestampAndPhase,
    );
    expect(sorted.map((p) => p.metadata.name)).toEqual(['d', 'a', 'b', 'c']);
  });

  it('finds never-bound pods pinned to nodes that no longer exist', () => {
    const pods = new Map([
      ['gone', [{ metadata: { name: 'pending' }, spec: { containers: [] } }, { metadata: { name: 'bound' }, spec: { containers: [], nodeName: 'gone' } }]],
      ['n', [{ metadata: { name: 'fine' }, spec: { containers: [] } }]],
    ]);
    expect(getUnscheduledPodsWithoutNode([node('n')], pods)).toEqual(['pending']);
  });
});
