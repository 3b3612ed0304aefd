import type { Node, Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import type { Typed } from '../client/client';
import { createRng, type Rng } from '../sim/rng';
import { SchedulerCache } from './cache/cache';
import { FilterPrecheck } from './filter-precheck';
import { CycleState } from './framework/cycle-state';
import { Framework } from './framework/runtime';
import { isSuccess } from './framework/status';
import { newPodInfo, type PodInfo } from './framework/types';
import { InterPodAffinity } from './plugins/interpodaffinity/inter-pod-affinity';
import { NodeAffinity } from './plugins/nodeaffinity/node-affinity';
import { NodeName } from './plugins/nodename/node-name';
import { NodePorts } from './plugins/nodeports/node-ports';
import { BalancedAllocation } from './plugins/noderesources/balanced-allocation';
import { Fit } from './plugins/noderesources/fit';
import { NodeUnschedulable } from './plugins/nodeunschedulable/node-unschedulable';
import { PodTopologySpread } from './plugins/podtopologyspread/pod-topology-spread';
import { TaintToleration } from './plugins/tainttoleration/taint-toleration';
import { makeNode, makePod, podInfoOf } from './testing';

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)];

/** The default profile's Filter plugins, in its order (those that need no API objects beyond the cache). */
function filterFramework(): Framework {
  return new Framework('default-scheduler', [
    { plugin: new NodeUnschedulable() },
    { plugin: new NodeName() },
    { plugin: new TaintToleration() },
    { plugin: new NodeAffinity() },
    { plugin: new NodePorts() },
    { plugin: new Fit() },
    { plugin: new PodTopologySpread() },
    { plugin: new InterPodAffinity() },
  ]);
}

function randomNode(rng: Rng, name: string): Typed<Node> {
  const taints = [];
  if (rng.int(5) === 0) taints.push({ key: 'dedicated', value: pick(rng, ['a', 'b']), effect: pick(rng, ['NoSchedule', 'NoExecute', 'PreferNoSchedule']) });
  if (rng.int(10) === 0) taints.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
  const node = makeNode(name, {
    cpu: pick(rng, ['500m', '1', '2', '4']),
    memory: pick(rng, ['512Mi', '1Gi', '2Gi']),
    pods: pick(rng, ['0', '1', '2', '3', '5', '110']),
    zone: pick(rng, ['a', 'b', undefined]),
    taints: taints.length ? taints : undefined,
    unschedulable: rng.int(8) === 0,
  });
  const alloc = node.status!.allocatable as Record<string, string>;
  if (rng.int(3) === 0) alloc['ephemeral-storage'] = pick(rng, ['0', '1Gi', '2Gi']);
  if (rng.int(4) === 0) alloc['example.com/gpu'] = pick(rng, ['0', '1', '2']);
  return node;
}

function randomPod(rng: Rng, name: string): Typed<Pod> {
  const requests: Record<string, string> = {};
  if (rng.int(4) > 0) requests.cpu = pick(rng, ['0', '100m', '250m', '500m', '1', '1500m']);
  if (rng.int(3) > 0) requests.memory = pick(rng, ['0', '64Mi', '256Mi', '512Mi', '1Gi']);
  if (rng.int(5) === 0) requests['ephemeral-storage'] = pick(rng, ['0', '512Mi', '1Gi']);
  const limits: Record<string, string> = {};
  if (rng.int(8) === 0) requests['example.com/gpu'] = limits['example.com/gpu'] = pick(rng, ['0', '1']);
  const spec: Partial<Pod['spec']> = { containers: [{ name: 'c', image: 'nginx', resources: { requests, limits } }] };
  if (rng.int(4) === 0) spec.tolerations = [pick(rng, [{ operator: 'Exists' }, { key: 'dedicated', operator: 'Exists' }, { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }])];
  if (rng.int(8) === 0) spec.nodeSelector = { 'topology.kubernetes.io/zone': pick(rng, ['a', 'b']) };
  if (rng.int(8) === 0) spec.containers![0].ports = [{ containerPort: 80, hostPort: 8080 }];
  if (rng.int(10) === 0) spec.nodeName = `n${rng.int(40)}`;
  if (rng.int(8) === 0) {
    spec.topologySpreadConstraints = [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }];
  }
  return makePod(name, { labels: { app: 'web' }, extra: spec });
}

/** A cache taken through random node and pod changes: every path that changes what the filters read. */
function churnedCache(rng: Rng): SchedulerCache {
  const cache = new SchedulerCache();
  const placed: { pi: PodInfo; assumed: boolean }[] = [];
  let nodes = 40;
  for (let i = 0; i < nodes; i++) cache.addNode(randomNode(rng, `n${i}`));
  for (let step = 0; step < 400; step++) {
    // Rows are laid out when first asked for, then kept current: ask now and then, as scheduling cycles do.
    if (rng.int(20) === 0) cache.fitRows();
    const op = rng.int(12);
    if (op < 5) {
      const node = `n${rng.int(nodes)}`;
      const pi = podInfoOf(randomPod(rng, `p${step}`), node);
      const assumed = rng.int(2) === 0;
      if (assumed) cache.assumePod(pi, node);
      else cache.addPod(pi);
      placed.push({ pi, assumed });
    } else if (op < 8 && placed.length > 0) {
      const [{ pi, assumed }] = placed.splice(rng.int(placed.length), 1);
      if (!assumed) cache.removePod(pi.key);
      else if (rng.int(2) === 0) cache.forgetPod(pi.key);
      else {
        // The binding confirmed, then a status write.
        cache.addPod(pi);
        cache.updatePod(newPodInfo({ ...pi.pod, status: { phase: 'Running' } }));
        placed.push({ pi, assumed: false });
      }
    } else if (op < 10) {
      cache.updateNode(randomNode(rng, `n${rng.int(nodes)}`));
    } else if (op === 10) {
      cache.removeNode(`n${rng.int(nodes)}`);
    } else {
      cache.addNode(randomNode(rng, `n${nodes++}`));
    }
  }
  return cache;
}

describe('FilterPrecheck', () => {
  it('vouches for a node only when NodeUnschedulable, NodeName, TaintToleration and NodeResourcesFit pass, whatever the cache went through', () => {
    const fw = filterFramework();
    const prechecked = fw.filterPlugins.filter((p) => [NodeUnschedulable, NodeName, TaintToleration, Fit].some((c) => p instanceof c));
    let decided = 0;
    let vouched = 0;
    let rejected = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const rng = createRng(seed);
      const cache = churnedCache(rng);
      for (let k = 0; k < 40; k++) {
        const pod = podInfoOf(randomPod(rng, `incoming-${k}`));
        const state = new CycleState();
        const pre = fw.runPreFilterPlugins(state, pod, cache);
        if (!isSuccess(pre.status)) continue;
        const precheck = FilterPrecheck.forPod(fw.activeFilterPlugins(state), pod, cache.fitRows());
        if (!precheck) continue;
        decided++;
        const nodes = cache.nodeInfos();
        for (let i = 0; i < nodes.length; i++) {
          const full = fw.runFilterPlugins(state, pod, nodes[i]);
          if (!isSuccess(full)) rejected++;
          if (!precheck.passes(i)) continue;
          vouched++;
          for (const pl of prechecked) expect(pl.filter(state, pod, nodes[i]), `${pl.name} on ${nodes[i].name}`).toBeUndefined();
          // What the filter phase then reports for the node is what the full chain reports.
          expect(fw.runFilterPluginList(state, pod, nodes[i], precheck.rest)).toEqual(full);
        }
      }
    }
    // The randomized cases exercise both answers (and the rejections past a passing row).
    expect(decided).toBeGreaterThan(200);
    expect(vouched).toBeGreaterThan(1000);
    expect(rejected).toBeGreaterThan(1000);
  });

  it('gives the resource scorers the same cpu and memory sums as the NodeInfos, whatever the cache went through', () => {
    const scorers = [new Fit(), new BalancedAllocation()];
    for (let seed = 1; seed <= 6; seed++) {
      const rng = createRng(seed);
      const cache = churnedCache(rng);
      const nodes = cache.nodeInfos();
      const fromRows = new Float64Array(nodes.length);
      const fromNodes = new Float64Array(nodes.length);
      for (let k = 0; k < 10; k++) {
        const pod = podInfoOf(randomPod(rng, `incoming-${k}`));
        for (const pl of scorers) {
          pl.scoreNodes(new CycleState(), pod, nodes, fromRows, cache.fitRows());
          pl.scoreNodes(new CycleState(), pod, nodes, fromNodes);
          expect([...fromRows]).toEqual([...fromNodes]);
          expect([...fromNodes]).toEqual(nodes.map((ni) => pl.score(new CycleState(), pod, ni)));
        }
      }
    }
  });

  it('declines pods it cannot decide for: a named node, an extended resource, a profile without one of its filters or with a subclass', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('n1'));
    const fw = filterFramework();
    const active = fw.activeFilterPlugins(new CycleState());
    const plain = podInfoOf(makePod('plain', { cpu: '100m' }));
    expect(FilterPrecheck.forPod(active, plain, cache.fitRows())?.passes(0)).toBe(true);
    expect(FilterPrecheck.forPod(active, podInfoOf(makePod('named', { extra: { nodeName: 'n1' } })), cache.fitRows())).toBeUndefined();
    const gpu = makePod('gpu', { extra: { containers: [{ name: 'c', image: 'cuda', resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } } }] } });
    expect(FilterPrecheck.forPod(active, podInfoOf(gpu), cache.fitRows())).toBeUndefined();
    expect(FilterPrecheck.forPod(active.filter((p) => !(p instanceof TaintToleration)), plain, cache.fitRows())).toBeUndefined();
    // A subclass may filter differently: only the in-tree classes themselves are answered for.
    class StricterFit extends Fit {}
    expect(FilterPrecheck.forPod(active.map((p) => (p instanceof Fit ? new StricterFit() : p)), plain, cache.fitRows())).toBeUndefined();
  });

  it('follows the cache: a pod taking the last slot, a cordon, a new taint', () => {
    const cache = new SchedulerCache();
    cache.addNode(makeNode('n1', { pods: '1' }));
    const fw = filterFramework();
    const active = fw.activeFilterPlugins(new CycleState());
    const pod = podInfoOf(makePod('p'));
    expect(FilterPrecheck.forPod(active, pod, cache.fitRows())!.passes(0)).toBe(true);
    cache.assumePod(podInfoOf(makePod('x'), 'n1'), 'n1');
    expect(FilterPrecheck.forPod(active, pod, cache.fitRows())!.passes(0)).toBe(false);
    cache.forgetPod('default/x');
    expect(FilterPrecheck.forPod(active, pod, cache.fitRows())!.passes(0)).toBe(true);
    cache.updateNode(makeNode('n1', { pods: '1', unschedulable: true }));
    expect(FilterPrecheck.forPod(active, pod, cache.fitRows())!.passes(0)).toBe(false);
    cache.updateNode(makeNode('n1', { pods: '1', taints: [{ key: 'k', effect: 'NoExecute' }] }));
    expect(FilterPrecheck.forPod(active, pod, cache.fitRows())!.passes(0)).toBe(false);
    cache.updateNode(makeNode('n1', { pods: '1', taints: [{ key: 'k', effect: 'PreferNoSchedule' }] }));
    expect(FilterPrecheck.forPod(active, pod, cache.fitRows())!.passes(0)).toBe(true);
  });
});
