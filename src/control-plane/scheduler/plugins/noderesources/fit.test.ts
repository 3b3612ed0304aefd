import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state';
import { makeNode, makePod, nodeInfoOf, podInfoOf } from '../../testing';
import { BalancedAllocation, balancedResourceScore } from './balanced-allocation';
import { Fit, leastRequestedScore, ReasonInsufficientCPU, ReasonInsufficientMemory, ReasonTooManyPods } from './fit';

const fit = new Fit();

describe('NodeResourcesFit filter', () => {
  it('reports each shortfall with the upstream reason, pods first', () => {
    const node = nodeInfoOf(makeNode('n', { cpu: '2', memory: '1Gi', pods: '1' }), [podInfoOf(makePod('x', { cpu: '1500m', memory: '512Mi' }), 'n')]);
    const s = fit.filter(new CycleState(), podInfoOf(makePod('p', { cpu: '1', memory: '1Gi' })), node);
    expect(s).toEqual({ code: 'Unschedulable', reasons: [ReasonTooManyPods, ReasonInsufficientCPU, ReasonInsufficientMemory] });
    expect([ReasonTooManyPods, ReasonInsufficientCPU, ReasonInsufficientMemory]).toEqual(['Too many pods', 'Insufficient cpu', 'Insufficient memory']);
  });

  it('counts what is already requested, including init containers and extended resources', () => {
    const node = nodeInfoOf(makeNode('n', { cpu: '2' }), [podInfoOf(makePod('x', { cpu: '1' }), 'n')]);
    expect(fit.filter(new CycleState(), podInfoOf(makePod('fits', { cpu: '1' })), node)).toBeUndefined();
    expect(fit.filter(new CycleState(), podInfoOf(makePod('too-big', { cpu: '1001m' })), node)?.reasons).toEqual(['Insufficient cpu']);
    // The largest init container counts when it exceeds the app containers.
    const init = makePod('init', { cpu: '100m', extra: { initContainers: [{ name: 'i', image: 'busybox', resources: { requests: { cpu: '1500m' } } }] } });
    expect(fit.filter(new CycleState(), podInfoOf(init), node)?.reasons).toEqual(['Insufficient cpu']);
    const gpu = makePod('gpu', { extra: { containers: [{ name: 'c', image: 'cuda', resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } } }] } });
    expect(fit.filter(new CycleState(), podInfoOf(gpu), node)?.reasons).toEqual(['Insufficient nvidia.com/gpu']);
  });

  it('a pod without requests only needs a pod slot', () => {
    const full = nodeInfoOf(makeNode('n', { cpu: '1', pods: '1' }), [podInfoOf(makePod('x', { cpu: '1' }), 'n')]);
    expect(fit.filter(new CycleState(), podInfoOf(makePod('p')), full)?.reasons).toEqual(['Too many pods']);
    const roomy = nodeInfoOf(makeNode('n', { cpu: '1' }), [podInfoOf(makePod('x', { cpu: '1' }), 'n')]);
    expect(fit.filter(new CycleState(), podInfoOf(makePod('p')), roomy)).toBeUndefined();
  });
});

describe('NodeResourcesFit score (LeastAllocated) and BalancedAllocation', () => {
  it('scores the free share of cpu and memory, averaged', () => {
    expect(leastRequestedScore(1000, 4000)).toBe(75);
    expect(leastRequestedScore(5000, 4000)).toBe(0);
    const pod = podInfoOf(makePod('p', { cpu: '1', memory: '2Gi' }));
    expect(fit.score(new CycleState(), pod, nodeInfoOf(makeNode('n', { cpu: '4', memory: '8Gi' })))).toBe(75);
    // cpu: (4000-3000)/4000 → 25; memory: (8Gi-4Gi)/8Gi → 50; mean 37.
    const busy = nodeInfoOf(makeNode('n', { cpu: '4', memory: '8Gi' }), [podInfoOf(makePod('x', { cpu: '2', memory: '2Gi' }), 'n')]);
    expect(fit.score(new CycleState(), pod, busy)).toBe(37);
  });

  it('counts containers without requests at 100m cpu / 200Mi memory when scoring', () => {
    const pod = podInfoOf(makePod('p'));
    // cpu (4000-100)*100/4000 = 97; memory (8192Mi-200Mi)*100/8192Mi = 97.
    expect(fit.score(new CycleState(), pod, nodeInfoOf(makeNode('n', { cpu: '4', memory: '8Gi' })))).toBe(97);
  });

  it('prefers nodes where cpu and memory would be used in equal shares', () => {
    expect(balancedResourceScore([1000, 2], [4000, 8])).toBe(100);
    expect(balancedResourceScore([2000, 2], [4000, 8])).toBe(87);
    const ba = new BalancedAllocation();
    const pod = podInfoOf(makePod('p', { cpu: '2', memory: '2Gi' }));
    expect(ba.score(new CycleState(), pod, nodeInfoOf(makeNode('n', { cpu: '4', memory: '8Gi' })))).toBe(87);
    expect(ba.score(new CycleState(), pod, nodeInfoOf(makeNode('m', { cpu: '4', memory: '4Gi' })))).toBe(100);
  });
});
