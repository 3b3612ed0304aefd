import { describe, expect, it } from 'vitest';
import type { PodCondition } from 'kubernetes-types/core/v1';
import { mergeConditions } from './pod-status';

describe('mergeConditions', () => {
  it("keeps a condition's transition time while its status holds and keeps other components' conditions", () => {
    const existing: PodCondition[] = [
      { type: 'Ready', status: 'False', lastTransitionTime: '2024-01-01T00:00:00Z' },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' },
      { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', lastTransitionTime: '2024-01-01T00:00:01Z' },
    ];
    const out = mergeConditions(existing, [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }, { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [init]' }], '2024-01-01T00:00:05Z');
    expect(JSON.parse(JSON.stringify(out))).toEqual([
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-01-01T00:00:05Z' },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-01-01T00:00:00Z' },
      { type: 'Initialized', status: 'False', lastProbeTime: null, lastTransitionTime: '2024-01-01T00:00:05Z', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [init]' },
      existing[2],
    ]);
    expect(out[3]).toBe(existing[2]);
  });

  it('gives pods whose conditions are identical the same frozen condition objects', () => {
    const a = mergeConditions([], [{ type: 'Ready', status: 'True' }, { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady' }], '2024-02-01T00:00:00Z');
    const b = mergeConditions([], [{ type: 'Ready', status: 'True' }, { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady' }], '2024-02-01T00:00:00Z');
    expect(b[0]).toBe(a[0]);
    expect(b[1]).toBe(a[1]);
    expect(Object.isFrozen(a[0])).toBe(true);
    const other = mergeConditions([], [{ type: 'Ready', status: 'False' }, { type: 'ContainersReady', status: 'False', reason: 'Other' }], '2024-02-01T00:00:00Z');
    expect(other[0]).not.toBe(a[0]);
    expect(other[1]).not.toBe(a[1]);
    expect(other[1].reason).toBe('Other');
  });
});
