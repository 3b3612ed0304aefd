import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  duplicatedIndexPodsForRemoval,
  firstPendingIndexes,
  getCompletionIndex,
  OrderedIntervals,
  parseIndexesFromString,
  podGenerateNameWithIndex,
} from './indexed-job-utils';

const pod = (name: string, index?: number | string, phase = 'Running'): Pod => ({
  metadata: { name, uid: name, annotations: index === undefined ? {} : { 'batch.kubernetes.io/job-completion-index': String(index) } },
  status: { phase },
});

describe('OrderedIntervals', () => {
  it('renders as Kubernetes does: runs with a dash, pairs with a comma', () => {
    expect(new OrderedIntervals().withOrderedIndexes([0, 1, 2, 3, 4]).toString()).toBe('0-4');
    expect(new OrderedIntervals().withOrderedIndexes([0, 1, 3, 5, 6, 7]).toString()).toBe('0,1,3,5-7');
  });

  it('merges new indexes into existing intervals', () => {
    const prev = parseIndexesFromString('0-2,5', 10);
    const merged = prev.withOrderedIndexes([3, 4, 7]);
    expect(merged.toString()).toBe('0-5,7');
    expect(merged.total()).toBe(7);
    expect(merged.has(4)).toBe(true);
    expect(merged.has(6)).toBe(false);
  });

  it('parses leniently: corrupt parts skipped, indexes beyond completions dropped', () => {
    expect(parseIndexesFromString('0-2,x,4,6-9', 8).toString()).toBe('0-2,4,6,7');
    expect(parseIndexesFromString('', 8).total()).toBe(0);
  });
});

describe('completion indexes', () => {
  it('reads the annotation as a non-negative integer', () => {
    expect(getCompletionIndex({ 'batch.kubernetes.io/job-completion-index': '3' })).toBe(3);
    expect(getCompletionIndex({ 'batch.kubernetes.io/job-completion-index': '-1' })).toBe(-1);
    expect(getCompletionIndex({ 'batch.kubernetes.io/job-completion-index': 'x' })).toBe(-1);
    expect(getCompletionIndex(undefined)).toBe(-1);
  });

  it('picks the first indexes no active pod, success or failure covers', () => {
    const succeeded = parseIndexesFromString('0,3', 10);
    expect(firstPendingIndexes(3, 6, [pod('a', 1)], succeeded, undefined, undefined)).toEqual([2, 4, 5]);
    expect(firstPendingIndexes(3, 6, [pod('a', 1)], succeeded, [pod('t', 2)], parseIndexesFromString('4', 6))).toEqual([5]);
    expect(firstPendingIndexes(0, 6, [], succeeded, undefined, undefined)).toEqual([]);
  });

  it('removes pods without an index, out of range, or duplicated', () => {
    const pods = [pod('a', 0), pod('b', 0, 'Pending'), pod('c'), pod('d', 9), pod('e', 1)];
    const { rm, left } = duplicatedIndexPodsForRemoval(pods, 5);
    // Of the two index-0 pods the pending one goes.
    expect(rm.map((p) => p.metadata!.name).sort()).toEqual(['b', 'c', 'd']);
    expect(left.map((p) => p.metadata!.name).sort()).toEqual(['a', 'e']);
  });

  it('names pods "<job>-<index>-" within the generated-name limit', () => {
    expect(podGenerateNameWithIndex('indexed', 3)).toBe('indexed-3-');
    const long = 'a'.repeat(60);
    const name = podGenerateNameWithIndex(long, 12);
    expect(name).toHaveLength(58);
    expect(name.endsWith('-12-')).toBe(true);
  });
});
