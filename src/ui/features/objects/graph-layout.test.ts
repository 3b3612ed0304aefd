import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import type { HeadlessCluster } from '../../../worker/headless';
import { createHeadlessCluster } from '../../../worker/headless';
type Cluster = HeadlessCluster['cluster'];
import type { LayoutNode, Point, Positions } from './graph-layout';
import { columnX, layoutFresh, layoutObjectGraph, placeIncrementally, rowStep } from './graph-layout';
import type { GraphInput, ObjectGraphNode } from './object-graph';
import { buildObjectGraph } from './object-graph';
import type { PresenceMap } from './presence';
import { leaveDurationMs, pruneDeparted, reconcilePresence } from './presence';

const node = (id: string, column: number): LayoutNode => ({ id, column });

/** Two nodes of one column closer than a row overlap. */
function overlaps(nodes: readonly LayoutNode[], positions: Positions): string[] {
  const found: string[] = [];
  for (const a of nodes) {
    for (const b of nodes) {
      if (a.id >= b.id || a.column !== b.column) continue;
      if (Math.abs(positions.get(a.id)!.y - positions.get(b.id)!.y) < rowStep - 0.5) found.push(`${a.id} / ${b.id}`);
    }
  }
  return found;
}

describe('layoutFresh', () => {
  it('puts every node in its column, owners left of dependents, without overlaps', () => {
    const nodes = [node('deploy', 0), node('rs', 1), node('p1', 2), node('p2', 2), node('p3', 2), node('n1', 3), node('n2', 3), node('cm', 3), node('pv', 4)];
    const edges = [
      { source: 'deploy', target: 'rs' },
      { source: 'rs', target: 'p1' },
      { source: 'rs', target: 'p2' },
      { source: 'rs', target: 'p3' },
      { source: 'p1', target: 'n1' },
      { source: 'p2', target: 'n2' },
      { source: 'p3', target: 'n2' },
      { source: 'p1', target: 'cm' },
    ];
    const positions = layoutFresh(nodes, edges);
    for (const n of nodes) expect(positions.get(n.id)!.x).toBe(columnX(n.column));
    expect(overlaps(nodes, positions)).toEqual([]);
  });

  it('keeps a lone node in its own column (Nodes in column 3 before any workload exists)', () => {
    const positions = layoutFresh([node('n1', 3), node('n2', 3)], []);
    expect(positions.get('n1')!.x).toBe(columnX(3));
    expect(overlaps([node('n1', 3), node('n2', 3)], positions)).toEqual([]);
  });

  it('ignores edges that point leftwards for ranking, and still places both ends', () => {
    const positions = layoutFresh([node('n1', 3), node('mirror', 2)], [{ source: 'n1', target: 'mirror' }]);
    expect(positions.get('mirror')!.x).toBe(columnX(2));
    expect(positions.get('n1')!.x).toBe(columnX(3));
  });
});

describe('placeIncrementally', () => {
  it('keeps every position, places a new pod beside its owner and leaves a hole where one went', () => {
    const nodes = [node('rs', 1), node('p1', 2), node('p2', 2), node('p3', 2)];
    const edges = ['p1', 'p2', 'p3'].map((p) => ({ source: 'rs', target: p, kind: 'owns' }));
    const before = layoutFresh(nodes, edges);
    // p2 is replaced by p4.
    const after = placeIncrementally(before, [node('rs', 1), node('p1', 2), node('p3', 2), node('p4', 2)], [...edges.filter((e) => e.target !== 'p2'), { source: 'rs', target: 'p4', kind: 'owns' }]);
    for (const id of ['rs', 'p1', 'p3']) expect(after.get(id)).toBe(before.get(id));
    expect(after.get('p4')).toEqual({ x: columnX(2), y: before.get('p2')!.y });
  });

  it('prefers the owner over a selecting Service, and falls back to what the node links to, then the bottom of its column', () => {
    const before: Positions = new Map<string, Point>([
      ['rs', { x: columnX(1), y: 10 }],
      ['svc', { x: columnX(1), y: 10 + 5 * rowStep }],
      ['n1', { x: columnX(3), y: 10 + 2 * rowStep }],
      ['p1', { x: columnX(2), y: 10 + 9 * rowStep }],
    ]);
    const after = placeIncrementally(
      before,
      [node('rs', 1), node('svc', 1), node('n1', 3), node('p1', 2), node('p2', 2), node('bare', 2), node('cm', 3)],
      [
        { source: 'svc', target: 'p2', kind: 'selects' },
        { source: 'rs', target: 'p2', kind: 'owns' },
        { source: 'bare', target: 'n1', kind: 'runs on' },
      ],
    );
    expect(after.get('p2')!.y).toBe(10);
    expect(after.get('bare')!.y).toBe(10 + 2 * rowStep);
    expect(after.get('cm')!.y).toBe(10 + 3 * rowStep);
  });

  it('starts afresh when none of the nodes had a position', () => {
    const fresh = layoutObjectGraph({ nodes: [node('a', 0)], edges: [] }, new Map([['gone', { x: 500, y: 500 }]]));
    expect(fresh.get('a')).toEqual({ x: columnX(0), y: 10 });
  });
});

const graphResource: Record<string, string> = { Deployment: 'apps/deployments', ReplicaSet: 'apps/replicasets', Pod: '/pods', Node: '/nodes' };

function snapshot(cluster: Cluster): GraphInput[] {
  const items: KubeObject[] = [
    ...cluster.client.deployments.list({ namespace: 'default' }).items,
    ...cluster.client.replicaSets.list({ namespace: 'default' }).items,
    ...cluster.client.pods.list({ namespace: 'default' }).items,
    ...cluster.client.nodes.list().items,
  ] as KubeObject[];
  return items.map((obj) => ({ id: `${graphResource[obj.kind]}|${obj.metadata.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata.name}`, obj }));
}

describe('the graph through a real Deployment rollout (headless cluster)', () => {
  let h: HeadlessCluster | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('never moves a node that stays, places new ones beside their owner and never overlaps, ghosts included', async () => {
    h = await createHeadlessCluster({ seed: 11 });
    const { cluster } = h;
    cluster.runUntil(() => cluster.client.serviceAccounts.list({ namespace: 'default' }).items.length === 1, 10_000);
    const snapshots: GraphInput[][] = [snapshot(cluster)];
    const stepUntil = (done: () => boolean) => {
      for (let i = 0; i < 400 && !done(); i++) {
        cluster.advance(500);
        snapshots.push(snapshot(cluster));
      }
      expect(done()).toBe(true);
    };
    const template = (image: string) => ({ metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image }] } });
    cluster.client.deployments.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'nginx', namespace: 'default' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'nginx' } }, template: template('nginx:1.14.2') },
    });
    const deployment = () => cluster.client.deployments.get('nginx', { namespace: 'default' });
    const settled = () => {
      const d = deployment();
      const pods = cluster.client.pods.list({ namespace: 'default' }).items;
      return d.status?.readyReplicas === 3 && d.status?.updatedReplicas === 3 && d.status?.replicas === 3 && pods.length === 3 && pods.every((p) => !p.metadata.deletionTimestamp);
    };
    stepUntil(settled);
    // A rollout: a second ReplicaSet appears, scales up while the first scales down to 0.
    cluster.client.deployments.update({ ...deployment(), spec: { ...deployment().spec!, template: template('nginx:1.16.1') } });
    stepUntil(() => cluster.client.replicaSets.list({ namespace: 'default' }).items.length === 2 && settled());
    // A pod deleted by hand is replaced by its ReplicaSet.
    const victim = cluster.client.pods.list({ namespace: 'default' }).items[0].metadata.name!;
    cluster.client.pods.delete(victim, { namespace: 'default' });
    stepUntil(() => settled() && !cluster.client.pods.list({ namespace: 'default' }).items.some((p) => p.metadata.name === victim));

    // Replay what the view does with each batch: presence (ghosts for 600 ms of real time), then layout.
    const realMsPerStep = 250;
    let presence: PresenceMap<ObjectGraphNode> = new Map();
    let positions: Positions | undefined;
    let ghostsSeen = 0;
    const placedNearOwner: number[] = [];
    let sawTwoReplicaSets = false;
    snapshots.forEach((inputs, step) => {
      const now = step * realMsPerStep;
      const graph = buildObjectGraph(inputs, 'default');
      presence = pruneDeparted(reconcilePresence(presence, graph.nodes, (n) => n.id, now), now, leaveDurationMs);
      const shown = [...presence.values()].map((p) => p.item);
      ghostsSeen += [...presence.values()].filter((p) => p.leavingSince !== undefined).length;
      const next = layoutObjectGraph({ nodes: shown, edges: graph.edges }, positions);
      for (const n of shown) {
        const p = next.get(n.id)!;
        expect(p.x, n.id).toBe(columnX(n.column));
        const before = positions?.get(n.id);
        if (before) expect(p, `${n.id} moved at step ${step}`).toEqual(before);
        else if (positions && n.kind === 'Pod') {
          const owner = graph.edges.find((e) => e.target === n.id && e.kind === 'owns');
          if (owner) placedNearOwner.push(Math.round(Math.abs(p.y - next.get(owner.source)!.y) / rowStep));
        }
      }
      expect(overlaps(shown, next), `step ${step}`).toEqual([]);
      if (graph.nodes.filter((n) => n.kind === 'ReplicaSet').length === 2) sawTwoReplicaSets = true;
      positions = next;
    });

    expect(sawTwoReplicaSets).toBe(true);
    expect(ghostsSeen).toBeGreaterThan(0);
    // Three pods of the new ReplicaSet and one replacement were placed after the first layout, each within a few
    // rows of its owner.
    expect(placedNearOwner.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...placedNearOwner)).toBeLessThanOrEqual(3);
  });
});
