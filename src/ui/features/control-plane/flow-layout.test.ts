import { describe, expect, it } from 'vitest';
import type { Box } from './flow-layout';
import { apiStages, deliveryRoute, kcmColumns, laneEdges, layoutControlPlane, requestRoute, svgPath } from './flow-layout';
import { routeLength } from '../../lib/token-motion';

const controllers = [
  'deployment-controller',
  'replicaset-controller',
  'replication-controller',
  'namespace-controller',
  'garbage-collector-controller',
  'serviceaccount-controller',
  'node-lifecycle-controller',
  'taint-eviction-controller',
  'pod-garbage-collector',
  'statefulset-controller',
];
const nodes = ['node-1', 'node-2', 'node-3'];

const overlap = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const within = (inner: Box, outer: Box) => inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;

describe('layoutControlPlane', () => {
  const l = layoutControlPlane(controllers, nodes);

  it('places the components without overlaps, inside the bounds, wide and short like the canvas at 1280×720', () => {
    const tops = [l.user, l.apiserver, l.etcd, l.kcm, l.scheduler, ...l.kubelets.values()];
    for (let i = 0; i < tops.length; i++) {
      for (let j = i + 1; j < tops.length; j++) expect(overlap(tops[i], tops[j])).toBe(false);
      expect(within(tops[i], { x: 0, y: 0, w: l.width, h: l.height })).toBe(true);
    }
    expect(l.width / l.height).toBeGreaterThan(1.6);
    expect(l.width / l.height).toBeLessThan(2.8);
  });

  it('puts every controller card inside kube-controller-manager and every stage chip inside the API server, in pipeline order', () => {
    expect([...l.controllers.keys()]).toEqual(controllers);
    const cards = [...l.controllers.values()];
    for (const c of cards) expect(within(c, l.kcm)).toBe(true);
    for (let i = 0; i < cards.length; i++) for (let j = i + 1; j < cards.length; j++) expect(overlap(cards[i], cards[j])).toBe(false);
    const chips = apiStages.map((s) => l.stages.get(s.stage)!);
    for (const c of chips) expect(within(c, l.apiserver)).toBe(true);
    for (let i = 1; i < chips.length; i++) expect(chips[i].x).toBeGreaterThan(chips[i - 1].x + chips[i - 1].w);
    expect(apiStages.map((s) => s.stage)).toEqual(['authentication', 'impersonation', 'authorization', 'decode', 'defaulting', 'mutating-admission', 'validation', 'validating-admission', 'persistence']);
  });

  it('grows kube-controller-manager with its controllers (up to five a row) and the column with the kubelets', () => {
    expect([3, 9, 10, 12, 13, 15, 30].map(kcmColumns)).toEqual([3, 3, 4, 4, 5, 5, 5]);
    const small = layoutControlPlane(controllers.slice(0, 3), nodes);
    expect(small.kcm.h).toBeLessThan(l.kcm.h);
    const six = layoutControlPlane(controllers, [...nodes, 'node-4', 'node-5', 'node-6']);
    expect(six.height).toBeGreaterThan(l.height);
    expect(six.kubelets.size).toBe(6);
  });

  it('routes requests through the stages to etcd or to the refusing stage, and watches from etcd to the watcher', () => {
    const toEtcd = requestRoute(l, 'scheduler', undefined);
    expect(toEtcd[0]).toEqual({ x: l.scheduler.x + 40, y: l.scheduler.y });
    expect(toEtcd.at(-1)).toEqual({ x: l.etcd.x, y: l.stages.get('authentication')!.y + l.stages.get('authentication')!.h / 2 });
    const refused = requestRoute(l, 'kubelet:node-2', 'authorization');
    const chip = l.stages.get('authorization')!;
    expect(refused.at(-1)).toEqual({ x: chip.x + chip.w / 2, y: chip.y + chip.h / 2 });
    const watch = deliveryRoute(l, 'kubelet:node-3');
    const k = l.kubelets.get('node-3')!;
    expect(watch[0]).toEqual({ x: l.etcd.x + l.etcd.w / 2, y: l.etcd.y + l.etcd.h });
    expect(watch.at(-1)).toEqual({ x: k.x + k.w, y: k.y + k.h / 2 });
    // Routes are orthogonal lanes: each leg is horizontal or vertical.
    for (const route of [toEtcd, watch, requestRoute(l, 'controller:namespace-controller', undefined)]) {
      for (let i = 1; i < route.length; i++) expect(route[i].x === route[i - 1].x || route[i].y === route[i - 1].y).toBe(true);
      expect(routeLength(route)).toBeGreaterThan(0);
    }
  });

  it('draws one request lane per sender, the API server → etcd hop, and one watch lane per watcher', () => {
    const ids = laneEdges(l).map((e) => e.id);
    expect(ids).toEqual([
      'request:user',
      'request:kcm',
      'request:scheduler',
      'request:kubelet:node-1',
      'request:kubelet:node-2',
      'request:kubelet:node-3',
      'request:etcd',
      'watch:kcm',
      'watch:scheduler',
      'watch:kubelet:node-1',
      'watch:kubelet:node-2',
      'watch:kubelet:node-3',
    ]);
  });

  it('writes SVG paths', () => {
    expect(svgPath([{ x: 0, y: 0 }, { x: 10.04, y: 0 }, { x: 10.04, y: 5 }])).toBe('M 0 0 L 10 0 L 10 5');
  });
});
