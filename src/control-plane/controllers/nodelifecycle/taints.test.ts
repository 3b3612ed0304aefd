import { describe, expect, it } from 'vitest';
import type { Taint } from 'kubernetes-types/core/v1';
import { addOrUpdateTaint, getMatchingTolerations, removeTaint, taintSetDiff, taintString, toleratesTaint } from './taints';

const t = (key: string, effect: string, value?: string, timeAdded?: string): Taint => ({ key, effect, value, timeAdded });

describe('taints', () => {
  it('diffs taint sets by key and effect only', () => {
    const desired = [t('a', 'NoSchedule'), t('b', 'NoSchedule')];
    const current = [t('a', 'NoSchedule', undefined, '2026-01-01T00:00:00Z'), t('c', 'NoSchedule')];
    expect(taintSetDiff(desired, current)).toEqual({ toAdd: [t('b', 'NoSchedule')], toRemove: [t('c', 'NoSchedule')] });
  });

  it('adds, replaces a matching taint unless identical, and removes by key and effect', () => {
    expect(addOrUpdateTaint([t('a', 'NoExecute')], t('a', 'NoSchedule'))).toEqual({ taints: [t('a', 'NoExecute'), t('a', 'NoSchedule')], updated: true });
    expect(addOrUpdateTaint([t('a', 'NoExecute', 'x')], t('a', 'NoExecute', 'y'))).toEqual({ taints: [t('a', 'NoExecute', 'y')], updated: true });
    expect(addOrUpdateTaint([t('a', 'NoExecute', 'x')], t('a', 'NoExecute', 'x')).updated).toBe(false);
    expect(removeTaint([t('a', 'NoExecute', 'x'), t('b', 'NoExecute')], t('a', 'NoExecute'))).toEqual({ taints: [t('b', 'NoExecute')], updated: true });
    expect(removeTaint([t('b', 'NoExecute')], t('a', 'NoExecute')).updated).toBe(false);
  });

  it('tolerates as Toleration.ToleratesTaint does', () => {
    const taint = t('dedicated', 'NoExecute', 'gpu');
    expect(toleratesTaint({ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoExecute' }, taint)).toBe(true);
    expect(toleratesTaint({ key: 'dedicated', value: 'gpu' }, taint)).toBe(true); // empty operator is Equal; empty effect matches all
    expect(toleratesTaint({ key: 'dedicated', operator: 'Equal', value: 'cpu' }, taint)).toBe(false);
    expect(toleratesTaint({ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }, taint)).toBe(false);
    expect(toleratesTaint({ operator: 'Exists' }, taint)).toBe(true); // empty key with Exists tolerates everything
    expect(toleratesTaint({ key: 'dedicated', operator: 'Lt', value: 'gpu' }, taint)).toBe(false);
  });

  it('finds the toleration used for each taint, or reports an untolerated one', () => {
    const taints = [t('a', 'NoExecute'), t('b', 'NoExecute')];
    const ta = { key: 'a', operator: 'Exists', tolerationSeconds: 10 };
    const tb = { key: 'b', operator: 'Exists' };
    expect(getMatchingTolerations(taints, [tb, ta])).toEqual({ allTolerated: true, used: [ta, tb] });
    expect(getMatchingTolerations(taints, [ta])).toEqual({ allTolerated: false, used: [] });
    expect(getMatchingTolerations([], undefined)).toEqual({ allTolerated: true, used: [] });
    expect(getMatchingTolerations(taints, [])).toEqual({ allTolerated: false, used: [] });
  });

  it('prints taints as key=value:Effect', () => {
    expect(taintString(t('node.kubernetes.io/unreachable', 'NoExecute'))).toBe('node.kubernetes.io/unreachable:NoExecute');
    expect(taintString(t('dedicated', 'NoSchedule', 'gpu'))).toBe('dedicated=gpu:NoSchedule');
  });
});
