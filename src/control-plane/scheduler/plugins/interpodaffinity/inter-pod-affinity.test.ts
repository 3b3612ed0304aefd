import { describe, expect, it } from 'vitest';
import { CycleState } from '../../framework/cycle-state';
import { listerOf, makeNode, makePod, nodeInfoOf, podInfoOf } from '../../testing';
import {
  ErrReasonAffinityRulesNotMatch,
  ErrReasonAntiAffinityRulesNotMatch,
  ErrReasonExistingAntiAffinityRulesNotMatch,
  InterPodAffinity,
} from './inter-pod-affinity';

const plugin = new InterPodAffinity();
const host = 'kubernetes.io/hostname';

function term(labels: Record<string, string>, topologyKey = host) {
  return { labelSelector: { matchLabels: labels }, topologyKey };
}

describe('InterPodAffinity filter', () => {
  const db = podInfoOf(makePod('db', { labels: { app: 'db' } }), 'node-1');
  const nodes = () => [nodeInfoOf(makeNode('node-1', { zone: 'a' }), [db]), nodeInfoOf(makeNode('node-2', { zone: 'a' })), nodeInfoOf(makeNode('node-3', { zone: 'b' }))];

  function run(pod: ReturnType<typeof podInfoOf>) {
    const ns = nodes();
    const state = new CycleState();
    const pre = plugin.preFilter(state, pod, listerOf(ns));
    if (pre.status?.code === 'Skip') return ns.map(() => undefined);
    return ns.map((n) => plugin.filter(state, pod, n)?.reasons[0]);
  }

  it('anti-affinity keeps the pod out of the domain of a matching pod', () => {
    const pod = podInfoOf(makePod('db2', { labels: { app: 'db' }, extra: { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'db' })] } } } }));
    expect(run(pod)).toEqual([ErrReasonAntiAffinityRulesNotMatch, undefined, undefined]);
    const zonal = podInfoOf(makePod('db3', { extra: { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'db' }, 'topology.kubernetes.io/zone')] } } } }));
    expect(run(zonal)).toEqual([ErrReasonAntiAffinityRulesNotMatch, ErrReasonAntiAffinityRulesNotMatch, undefined]);
    expect(ErrReasonAntiAffinityRulesNotMatch).toBe("node(s) didn't match pod anti-affinity rules");
  });

  it('affinity requires a matching pod in the domain', () => {
    const web = podInfoOf(makePod('web', { extra: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'db' }, 'topology.kubernetes.io/zone')] } } } }));
    expect(run(web)).toEqual([undefined, undefined, ErrReasonAffinityRulesNotMatch]);
    const orphan = podInfoOf(makePod('orphan', { extra: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'cache' })] } } } }));
    expect(run(orphan)).toEqual([ErrReasonAffinityRulesNotMatch, ErrReasonAffinityRulesNotMatch, ErrReasonAffinityRulesNotMatch]);
    expect(ErrReasonAffinityRulesNotMatch).toBe("node(s) didn't match pod affinity rules");
    // The first pod of a group with affinity to itself may go anywhere.
    const first = podInfoOf(makePod('cache-0', { labels: { app: 'cache' }, extra: { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'cache' })] } } } }));
    expect(run(first)).toEqual([undefined, undefined, undefined]);
  });

  it("honours existing pods' anti-affinity towards the incoming pod", () => {
    const loner = podInfoOf(makePod('loner', { extra: { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' })] } } } }), 'node-2');
    const ns = [nodeInfoOf(makeNode('node-1')), nodeInfoOf(makeNode('node-2'), [loner])];
    const web = podInfoOf(makePod('web', { labels: { app: 'web' } }));
    const state = new CycleState();
    plugin.preFilter(state, web, listerOf(ns));
    expect(ns.map((n) => plugin.filter(state, web, n)?.reasons[0])).toEqual([undefined, ErrReasonExistingAntiAffinityRulesNotMatch]);
    expect(ErrReasonExistingAntiAffinityRulesNotMatch).toBe("node(s) didn't satisfy existing pods anti-affinity rules");
  });
});

describe('InterPodAffinity score', () => {
  it('prefers the domain of pods matching a preferred term, and avoids preferred anti-affinity', () => {
    const cache = podInfoOf(makePod('cache', { labels: { app: 'cache' } }), 'node-1');
    const noisy = podInfoOf(makePod('noisy', { labels: { app: 'noisy' } }), 'node-3');
    const ns = [nodeInfoOf(makeNode('node-1'), [cache]), nodeInfoOf(makeNode('node-2')), nodeInfoOf(makeNode('node-3'), [noisy])];
    const pod = podInfoOf(
      makePod('web', {
        extra: {
          affinity: {
            podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, podAffinityTerm: term({ app: 'cache' }) }] },
            podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, podAffinityTerm: term({ app: 'noisy' }) }] },
          },
        },
      }),
    );
    const state = new CycleState();
    expect(plugin.preScore(state, pod, ns, listerOf(ns))).toBeUndefined();
    const scores = ns.map((n) => ({ name: n.name, score: plugin.score(state, pod, n) }));
    expect(scores.map((s) => s.score)).toEqual([50, 0, -50]);
    plugin.normalizeScore(state, pod, scores);
    expect(scores.map((s) => s.score)).toEqual([100, 50, 0]);
  });
});
