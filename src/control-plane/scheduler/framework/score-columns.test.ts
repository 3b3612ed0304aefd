// The column forms of Score and NormalizeScore (scoreNodes, normalizeScoreColumn) must give exactly what the
// per-node forms give: the framework uses them when a plugin has them, and decisions are pinned by the tests.
import { describe, expect, it } from 'vitest';
import { CycleState } from './cycle-state';
import { Code } from './status';
import type { NodeScore, ScorePlugin } from './interface';
import type { NodeInfo, PodInfo } from './types';
import { listerOf, makeNode, makePod, nodeInfoOf, podInfoOf } from '../testing';
import { Fit } from '../plugins/noderesources/fit';
import { BalancedAllocation } from '../plugins/noderesources/balanced-allocation';
import { TaintToleration } from '../plugins/tainttoleration/taint-toleration';
import { NodeAffinity } from '../plugins/nodeaffinity/node-affinity';
import { PodTopologySpread } from '../plugins/podtopologyspread/pod-topology-spread';
import { NodeFitRows } from '../cache/node-fit-rows';

function nodes(): NodeInfo[] {
  const zones = ['a', 'b', 'c', undefined];
  const out: NodeInfo[] = [];
  for (let i = 0; i < 12; i++) {
    const node = makeNode(`n${i}`, {
      cpu: ['2', '4', '8'][i % 3],
      memory: ['4Gi', '8Gi', '16Gi'][i % 3],
      zone: zones[i % 4],
      labels: i % 2 ? { disktype: 'ssd' } : {},
      taints: i % 5 === 0 ? [{ key: 'spot', value: 'yes', effect: 'PreferNoSchedule' }] : undefined,
    });
    const pods: PodInfo[] = [];
    for (let j = 0; j < i % 4; j++) pods.push(podInfoOf(makePod(`p${i}-${j}`, { cpu: '250m', memory: '256Mi', labels: { app: j % 2 ? 'web' : 'db' } }), `n${i}`));
    out.push(nodeInfoOf(node, pods));
  }
  return out;
}

function perNode(plugin: ScorePlugin, state: CycleState, pod: PodInfo, list: NodeInfo[]): { raw: number[]; normalized: number[] } {
  const raw = list.map((n) => plugin.score(state, pod, n));
  const scores: NodeScore[] = list.map((n, i) => ({ name: n.name, score: raw[i] }));
  plugin.normalizeScore?.(state, pod, scores);
  return { raw, normalized: scores.map((s) => s.score) };
}

function columns(plugin: ScorePlugin, state: CycleState, pod: PodInfo, list: NodeInfo[]): { raw: number[]; normalized: number[] } {
  const raw = new Float64Array(list.length);
  if (plugin.scoreNodes) plugin.scoreNodes(state, pod, list, raw);
  else list.forEach((n, i) => (raw[i] = plugin.score(state, pod, n)));
  const column = Float64Array.from(raw);
  if (plugin.normalizeScoreColumn) plugin.normalizeScoreColumn(state, pod, list.map((n) => n.name), column);
  else if (plugin.normalizeScore) throw new Error(`${plugin.name} normalises per node only`);
  return { raw: [...raw], normalized: [...column] };
}

describe('score columns', () => {
  const pods = [
    makePod('plain', { labels: { app: 'web' } }),
    makePod('sized', { cpu: '1500m', memory: '3Gi', labels: { app: 'web' } }),
    makePod('spread', {
      labels: { app: 'web' },
      extra: {
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } },
          { maxSkew: 2, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } },
        ],
        tolerations: [{ key: 'spot', operator: 'Exists', effect: 'PreferNoSchedule' }],
        affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 5, preference: { matchExpressions: [{ key: 'disktype', operator: 'In', values: ['ssd'] }] } }] } },
      },
    }),
  ];
  const plugins: ScorePlugin[] = [new Fit(), new BalancedAllocation(), new TaintToleration(), new NodeAffinity(), new PodTopologySpread()];

  for (const p of pods) {
    for (const plugin of plugins) {
      it(`${plugin.name} scores ${p.metadata.name} the same by column as per node`, () => {
        const list = nodes();
        const pod = podInfoOf(p);
        const state = new CycleState();
        const pre = (plugin as Partial<{ preScore: (s: CycleState, p: PodInfo, n: NodeInfo[], l: unknown) => { code: string } | undefined }>).preScore;
        const status = pre?.call(plugin, state, pod, list, listerOf(list));
        // A plugin that skips has nothing to score; the framework does not call it.
        if (status?.code === Code.Skip) return;
        expect(columns(plugin, state, pod, list)).toEqual(perNode(plugin, state, pod, list));
      });
    }
  }

  for (const p of pods) {
    for (const plugin of [new Fit(), new BalancedAllocation()]) {
      it(`${plugin.name} scores ${p.metadata.name} the same from the cache's fit rows (and from NodeInfos for nodes without a row)`, () => {
        const list = nodes();
        const rows = new NodeFitRows();
        // Every other node has a row; the rest are read from their NodeInfo.
        rows.rebuild(list.filter((_, i) => i % 2 === 0));
        const pod = podInfoOf(p);
        const state = new CycleState();
        const raw = new Float64Array(list.length);
        plugin.scoreNodes(state, pod, list, raw, rows);
        expect([...raw]).toEqual(list.map((n) => plugin.score(state, pod, n)));
        expect(list.filter((n) => rows.rowOf(n) >= 0).length).toBe(6);
      });
    }
  }

  it('PodTopologySpread leaves nodes without the topology labels at 0 when the pod declares its constraints', () => {
    const list = nodes();
    const pod = podInfoOf(pods[2]);
    const plugin = new PodTopologySpread();
    const state = new CycleState();
    plugin.preScore(state, pod, list, listerOf(list));
    const { normalized } = columns(plugin, state, pod, list);
    const unlabelled = list.flatMap((n, i) => (n.labels['topology.kubernetes.io/zone'] === undefined ? [i] : []));
    expect(unlabelled.length).toBe(3);
    for (const i of unlabelled) expect(normalized[i]).toBe(0);
    expect(normalized.some((s) => s > 0)).toBe(true);
  });
});
