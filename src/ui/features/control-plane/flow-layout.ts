// Fixed positions for the Control plane view (flow coordinates), and the routes tokens travel along: the user,
// the API server with its stages in order and etcd across the top; kube-controller-manager's controllers, the
// scheduler and the kubelets below. Requests climb a lane into the API server's first stage and run through
// the stages to etcd; watch deliveries leave etcd along a second lane down to their watcher.
// Pure: the view draws nodes at these boxes and edges along these routes, and tokens follow the same routes.
import type { Point } from '../../lib/token-motion';
import { ApiStage } from '../../../shared/protocol/trace';
import type { FlowComponentId } from './trace-flow';

export type { Point };

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The API server's stages in pipeline order; the small ones are steps most requests pass without a story. */
export const apiStages: readonly { stage: ApiStage; label: string; small: boolean }[] = [
  { stage: ApiStage.Authentication, label: 'Authentication', small: false },
  { stage: ApiStage.Impersonation, label: 'Imperson\u00ADation', small: true },
  { stage: ApiStage.Authorization, label: 'Authorization', small: false },
  { stage: ApiStage.Decode, label: 'Decode', small: true },
  { stage: ApiStage.Defaulting, label: 'Default', small: true },
  { stage: ApiStage.MutatingAdmission, label: 'Mutating admission', small: false },
  { stage: ApiStage.Validation, label: 'Validation', small: false },
  { stage: ApiStage.ValidatingAdmission, label: 'Validating admission', small: false },
  { stage: ApiStage.Persistence, label: 'Persist', small: true },
];

export interface ControlPlaneLayout {
  user: Box;
  apiserver: Box;
  etcd: Box;
  kcm: Box;
  scheduler: Box;
  /** Absolute boxes of the controller cards inside kube-controller-manager. */
  controllers: ReadonlyMap<string, Box>;
  kubelets: ReadonlyMap<string, Box>;
  /** Absolute boxes of the stage chips inside the API server. */
  stages: ReadonlyMap<string, Box>;
  width: number;
  height: number;
}

// The geometry, in flow pixels. The canvas fits it (fitView), so only proportions matter: wide and short, as
// the canvas is at 1280×720 between the editor and the inspector.
const stageRowY = 38;
const stageRowH = 58;
const stageY = stageRowY + stageRowH / 2;
const requestLaneY = 196;
const watchLaneY = 212;
const lowerY = 240;
const cardW = 152;
const cardH = 58;
const cardGap = 8;
const kcmHeader = 42;
const kubeletH = 62;
const kubeletGap = 8;
const columnGap = 26;

/** Controller cards per row: three for a few, up to five for kube-controller-manager's usual dozen or more. */
export function kcmColumns(controllers: number): number {
  return Math.min(5, Math.max(3, Math.ceil(controllers / 3)));
}

export function layoutControlPlane(controllerNames: readonly string[], kubeletNodes: readonly string[]): ControlPlaneLayout {
  const user: Box = { x: 0, y: stageY - 50, w: 170, h: 100 };
  const apiserver: Box = { x: 216, y: 0, w: 780, h: 172 };
  const etcd: Box = { x: 1040, y: stageY - 50, w: 170, h: 100 };

  const stages = new Map<string, Box>();
  const units = apiStages.reduce((n, s) => n + (s.small ? 0.5 : 1), 0);
  const gap = 6;
  const unit = (apiserver.w - 24 - gap * (apiStages.length - 1)) / units;
  let x = apiserver.x + 12;
  for (const s of apiStages) {
    const w = unit * (s.small ? 0.5 : 1);
    stages.set(s.stage, { x, y: apiserver.y + stageRowY, w, h: stageRowH });
    x += w + gap;
  }

  const columns = kcmColumns(controllerNames.length);
  const rows = Math.max(1, Math.ceil(controllerNames.length / columns));
  const kcm: Box = { x: 0, y: lowerY, w: columns * cardW + (columns + 1) * cardGap, h: kcmHeader + rows * (cardH + cardGap) + cardGap };
  const controllers = new Map<string, Box>();
  controllerNames.forEach((name, i) => {
    const col = i % columns;
    const row = Math.floor(i / columns);
    controllers.set(name, { x: kcm.x + cardGap + col * (cardW + cardGap), y: kcm.y + kcmHeader + row * (cardH + cardGap), w: cardW, h: cardH });
  });

  const scheduler: Box = { x: kcm.x + kcm.w + columnGap, y: lowerY, w: 230, h: 190 };
  const kubelets = new Map<string, Box>();
  const kx = scheduler.x + scheduler.w + columnGap;
  const kw = 190;
  kubeletNodes.forEach((node, i) => kubelets.set(node, { x: kx, y: lowerY + i * (kubeletH + kubeletGap), w: kw, h: kubeletH }));

  const bottom = Math.max(kcm.y + kcm.h, scheduler.y + scheduler.h, lowerY + kubeletNodes.length * (kubeletH + kubeletGap));
  // The watch lane to the kubelets runs down their right side.
  const width = Math.max(etcd.x + etcd.w, kx + kw + 40);
  return { user, apiserver, etcd, kcm, scheduler, controllers, kubelets, stages, width, height: bottom };
}

const center = (b: Box): Point => ({ x: b.x + b.w / 2, y: b.y + b.h / 2 });

/** Where the API server takes requests in: its left edge, on the stage row. */
function apiEntry(l: ControlPlaneLayout): Point {
  return { x: l.apiserver.x, y: l.apiserver.y + stageY };
}

/** The lane x where requests from below turn up to the entry. */
function entryLaneX(l: ControlPlaneLayout): number {
  return l.apiserver.x - 22;
}

/** From a component to the API server's entry (the user walks straight in; the others climb the request lane). */
export function senderRoute(l: ControlPlaneLayout, from: FlowComponentId): Point[] {
  const entry = apiEntry(l);
  if (from === 'user') return [{ x: l.user.x + l.user.w, y: entry.y }, entry];
  const up = (start: Point[]): Point[] => {
    const last = start[start.length - 1];
    return [...start, { x: last.x, y: requestLaneY }, { x: entryLaneX(l), y: requestLaneY }, { x: entryLaneX(l), y: entry.y }, entry];
  };
  if (from.startsWith('controller:')) {
    const card = l.controllers.get(from.slice('controller:'.length));
    if (card) return up([{ x: card.x + 24, y: card.y + card.h / 2 }]);
  }
  if (from.startsWith('kubelet:')) {
    const box = l.kubelets.get(from.slice('kubelet:'.length));
    if (box) return up([{ x: box.x, y: box.y + box.h / 2 }, { x: box.x - 14, y: box.y + box.h / 2 }]);
  }
  if (from === 'scheduler') return up([{ x: l.scheduler.x + 40, y: l.scheduler.y }]);
  // kube-controller-manager as a whole (a controller the cause chain did not name, or not laid out).
  return up([{ x: l.kcm.x + 40, y: l.kcm.y }]);
}

/**
 * Through the API server: from the entry along the stage row to the refusing stage's chip (and stops there),
 * or through every stage to etcd.
 */
export function pipelineRoute(l: ControlPlaneLayout, refusedAt: string | undefined): Point[] {
  const entry = apiEntry(l);
  const chip = refusedAt !== undefined ? l.stages.get(refusedAt) : undefined;
  if (chip) return [entry, center(chip)];
  return [entry, { x: l.etcd.x, y: entry.y }];
}

/** A request's whole route: sender → API server stages → etcd (or the stage that refused it). */
export function requestRoute(l: ControlPlaneLayout, from: FlowComponentId, refusedAt: string | undefined): Point[] {
  return joinRoutes(senderRoute(l, from), pipelineRoute(l, refusedAt));
}

/** A watch delivery's route: etcd down the watch lane to the watcher's informers. */
export function deliveryRoute(l: ControlPlaneLayout, to: FlowComponentId): Point[] {
  const start = { x: l.etcd.x + l.etcd.w / 2, y: l.etcd.y + l.etcd.h };
  const down = (x: number): Point[] => [start, { x: start.x, y: watchLaneY }, { x, y: watchLaneY }];
  if (to.startsWith('kubelet:')) {
    const box = l.kubelets.get(to.slice('kubelet:'.length));
    if (box) {
      const x = box.x + box.w + 16;
      return [...down(x), { x, y: box.y + box.h / 2 }, { x: box.x + box.w, y: box.y + box.h / 2 }];
    }
  }
  if (to === 'scheduler') {
    const x = l.scheduler.x + l.scheduler.w - 40;
    return [...down(x), { x, y: l.scheduler.y }];
  }
  // kube-controller-manager's informers sit at the right of its header.
  const x = l.kcm.x + l.kcm.w - 60;
  return [...down(x), { x, y: l.kcm.y }];
}

function joinRoutes(a: Point[], b: Point[]): Point[] {
  const last = a[a.length - 1];
  const first = b[0];
  return last && first && last.x === first.x && last.y === first.y ? [...a, ...b.slice(1)] : [...a, ...b];
}

/** An SVG path through the points: "M 0 0 L 10 0 L 10 10". */
export function svgPath(points: readonly Point[]): string {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${round(p.x)} ${round(p.y)}`).join(' ');
}


const round = (n: number) => Math.round(n * 10) / 10;

export interface LaneEdge {
  id: string;
  /** React Flow node ids. */
  source: string;
  target: string;
  kind: 'request' | 'watch';
  points: Point[];
}

/** The edges the view draws: each sender's request lane, the API server → etcd hop, and each watch lane. */
export function laneEdges(l: ControlPlaneLayout): LaneEdge[] {
  const edges: LaneEdge[] = [];
  const senders: { id: FlowComponentId; node: string }[] = [
    { id: 'user', node: 'user' },
    { id: 'kcm', node: 'kcm' },
    { id: 'scheduler', node: 'scheduler' },
    ...[...l.kubelets.keys()].map((n) => ({ id: `kubelet:${n}` as FlowComponentId, node: `kubelet:${n}` })),
  ];
  for (const s of senders) edges.push({ id: edgeIdOf('request', s.id), source: s.node, target: 'apiserver', kind: 'request', points: senderRoute(l, s.id) });
  const entry = apiEntry(l);
  edges.push({ id: 'request:etcd', source: 'apiserver', target: 'etcd', kind: 'request', points: [{ x: l.apiserver.x + l.apiserver.w, y: entry.y }, { x: l.etcd.x, y: entry.y }] });
  for (const s of senders) {
    if (s.id === 'user') continue;
    edges.push({ id: edgeIdOf('watch', s.id), source: 'etcd', target: s.node, kind: 'watch', points: deliveryRoute(l, s.id) });
  }
  return edges;
}

/** The lane a token is counted on when too many travel at once: its sender's request lane or its watcher's watch lane. */
export function edgeIdOf(kind: 'request' | 'watch', component: FlowComponentId): string {
  const c = component.startsWith('controller:') ? 'kcm' : component;
  return `${kind}:${c}`;
}
