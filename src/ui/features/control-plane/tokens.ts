// Plans the tokens one trace batch sets travelling: one per finished request (sender → stages → etcd, or to the
// stage that refused it) and one per watch delivery to a component (etcd → its informers). Every token is one
// trace event (its id is that event's seq); past the cap the rest are only counted, per lane. Pure: the page
// supplies the time and the layout.
import type { ControlPlaneLayout, Point } from './flow-layout';
import { deliveryRoute, edgeIdOf, requestRoute } from './flow-layout';
import { routeLength } from '../../lib/token-motion';
import type { FlowComponentId, FlowDelivery, FlowOutput, FlowRequest } from './trace-flow';
import { deliveryLabel, requestLabel } from './trace-flow';

export const Tone = {
  User: 'user',
  Controller: 'controller',
  Scheduler: 'scheduler',
  Kubelet: 'kubelet',
  Watch: 'watch',
  Refused: 'refused',
  Failed: 'failed',
} as const;
export type Tone = (typeof Tone)[keyof typeof Tone];

export interface PlannedToken {
  /** "request-<seq>" / "watch-<seq>": the trace event it stands for. */
  id: string;
  kind: 'request' | 'watch';
  /** The accessible name: "create deployments/nginx by kubernetes-admin". */
  label: string;
  tone: Tone;
  /** Its route, in flow coordinates. */
  points: Point[];
  delayMs: number;
  durationMs: number;
  /** A refused request stays at its stage this long after arriving (and stays a keyboard stop). */
  parkMs: number;
  /** The user's own requests rest where they arrived this long before fading, so a person sees them land. */
  holdMs: number;
  /** The lane it is counted on when over the cap. */
  edge: string;
  request?: FlowRequest;
  delivery?: FlowDelivery;
}

export interface TokenPlan {
  tokens: PlannedToken[];
  /** Tokens over the cap, per lane. */
  overflow: Record<string, number>;
  /** Controllers that started a reconcile in the batch, with how many times. */
  reconciles: Record<string, number>;
}

export interface TokenTiming {
  /** Tokens already travelling; new ones fill up to `cap`. */
  alive: number;
  cap: number;
  /** Spacing of tokens of one batch, so they leave in order rather than as one blob. */
  staggerMs: number;
  maxStaggerMs: number;
  /** Pixels per second along a route. */
  speed: number;
  parkMs: number;
  holdMs: number;
}

export const defaultTiming: Omit<TokenTiming, 'alive'> = { cap: 60, staggerMs: 90, maxStaggerMs: 1500, speed: 700, parkMs: 8000, holdMs: 1500 };

function senderTone(from: FlowComponentId): Tone {
  if (from === 'user') return Tone.User;
  if (from === 'scheduler') return Tone.Scheduler;
  if (from.startsWith('kubelet:')) return Tone.Kubelet;
  return Tone.Controller;
}

export function requestTone(r: FlowRequest): Tone {
  if (r.refusedAt !== undefined) return Tone.Refused;
  if (r.code >= 400) return Tone.Failed;
  return senderTone(r.from);
}

/** Where a delivery goes on the page: a component; the page's own watches (the acting user) are not drawn. */
export function deliveryTarget(d: FlowDelivery): FlowComponentId | undefined {
  return d.to && d.to !== 'user' ? d.to : undefined;
}

export function planTokens(flow: FlowOutput, layout: ControlPlaneLayout, timing: TokenTiming): TokenPlan {
  const plan: TokenPlan = { tokens: [], overflow: {}, reconciles: {} };
  for (const r of flow.reconciles) plan.reconciles[r.controller] = (plan.reconciles[r.controller] ?? 0) + 1;

  // Requests and deliveries in trace order: a commit's deliveries leave after the request that made it.
  const items: ({ seq: number; request: FlowRequest } | { seq: number; delivery: FlowDelivery })[] = [
    ...flow.requests.map((request) => ({ seq: request.seq, request })),
    ...flow.deliveries.filter((d) => deliveryTarget(d) !== undefined).map((delivery) => ({ seq: delivery.seq, delivery })),
  ].sort((a, b) => a.seq - b.seq);

  let room = Math.max(0, timing.cap - timing.alive);
  let i = 0;
  for (const item of items) {
    let token: PlannedToken;
    if ('request' in item) {
      const r = item.request;
      const points = requestRoute(layout, r.from, r.refusedAt);
      token = {
        id: `request-${r.seq}`,
        kind: 'request',
        label: `${requestLabel(r)}${r.refusedAt !== undefined ? `, refused at ${r.refusedAt}` : ''}`,
        tone: requestTone(r),
        points,
        delayMs: 0,
        durationMs: durationOf(routeLength(points), timing.speed),
        parkMs: r.refusedAt !== undefined ? timing.parkMs : 0,
        holdMs: r.refusedAt === undefined && r.from === 'user' ? timing.holdMs : 0,
        edge: edgeIdOf('request', r.from),
        request: r,
      };
    } else {
      const d = item.delivery;
      const points = deliveryRoute(layout, deliveryTarget(d)!);
      token = {
        id: `watch-${d.seq}`,
        kind: 'watch',
        label: deliveryLabel(d),
        tone: Tone.Watch,
        points,
        delayMs: 0,
        durationMs: durationOf(routeLength(points), timing.speed),
        parkMs: 0,
        holdMs: 0,
        edge: edgeIdOf('watch', deliveryTarget(d)!),
        delivery: d,
      };
    }
    // The person's own requests and any refusal are always shown: they are the tokens someone is looking for.
    if (room > 0 || token.tone === Tone.Refused || token.request?.from === 'user') {
      token.delayMs = Math.min(i * timing.staggerMs, timing.maxStaggerMs);
      plan.tokens.push(token);
      room = Math.max(0, room - 1);
      i++;
    } else {
      plan.overflow[token.edge] = (plan.overflow[token.edge] ?? 0) + 1;
    }
  }
  return plan;
}

function durationOf(length: number, speed: number): number {
  // Short hops still take long enough to see; long routes no more than a couple of seconds.
  return Math.round(Math.min(2400, Math.max(700, (length / speed) * 1000)));
}

