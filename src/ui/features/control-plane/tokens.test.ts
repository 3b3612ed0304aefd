import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Box } from './flow-layout';
import { deliveryRoute, layoutControlPlane, requestRoute } from './flow-layout';
import type { RealTrace } from './headless-trace.fixture';
import { realTrace } from './headless-trace.fixture';
import { Tone, defaultTiming, planTokens } from './tokens';
import { tokenKeyframes } from '../../lib/token-motion';
import type { FlowOutput } from './trace-flow';
import { createFlowCorrelator } from './trace-flow';

let trace: RealTrace;
let flow: FlowOutput;
const layout = layoutControlPlane(['deployment-controller', 'replicaset-controller', 'namespace-controller'], ['node-1', 'node-2', 'node-3']);

beforeAll(async () => {
  trace = await realTrace();
  flow = createFlowCorrelator().ingest(trace.events);
});
afterAll(() => trace.close());

const inside = (p: { x: number; y: number }, b: Box) => p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h;

describe('planTokens over a real trace', () => {
  it('makes every token from one real trace event and never more than the cap, counting the rest per lane', () => {
    const plan = planTokens(flow, layout, { ...defaultTiming, alive: 0 });
    const seqs = new Set(trace.events.map((e) => e.seq));
    // The user's requests and the refusal are always shown; the rest fill the cap.
    const always = plan.tokens.filter((t) => t.request?.from === 'user' || t.tone === Tone.Refused);
    expect(always.length).toBe(flow.requests.filter((r) => r.from === 'user' || r.refusedAt !== undefined).length);
    expect(plan.tokens.length - always.length).toBeLessThanOrEqual(defaultTiming.cap);
    for (const t of plan.tokens) {
      const seq = Number(t.id.split('-')[1]);
      expect(seqs.has(seq)).toBe(true);
      const event = trace.events.find((e) => e.seq === seq)!;
      expect(event.kind).toBe(t.kind === 'request' ? 'api.request' : 'watch.delivery');
    }
    const drawable = flow.requests.length + flow.deliveries.filter((d) => d.to && d.to !== 'user').length;
    const counted = Object.values(plan.overflow).reduce((a, b) => a + b, 0);
    expect(plan.tokens.length + counted).toBe(drawable);
    expect(counted).toBeGreaterThan(0);
  });

  it('fills only the room the travelling tokens leave', () => {
    const plan = planTokens(flow, layout, { ...defaultTiming, alive: defaultTiming.cap - 5 });
    expect(plan.tokens.filter((t) => t.tone !== Tone.Refused && t.request?.from !== 'user').length).toBeLessThanOrEqual(5);
  });

  it('parks the refused typo at the decode stage, in red, named for the request', () => {
    const plan = planTokens(flow, layout, { ...defaultTiming, alive: defaultTiming.cap });
    const refused = plan.tokens.filter((t) => t.tone === Tone.Refused);
    expect(refused).toHaveLength(1);
    const [t] = refused;
    expect(t.label).toBe('create deployments/nginx by kubernetes-admin, refused at decode');
    expect(t.parkMs).toBeGreaterThan(0);
    const route = requestRoute(layout, 'user', 'decode');
    expect(t.points).toEqual(route);
    expect(inside(route.at(-1)!, layout.stages.get('decode')!)).toBe(true);
  });

  it("sends the user's create to etcd and the controllers' requests from their cards", () => {
    const plan = planTokens({ ...flow, deliveries: [] }, layout, { ...defaultTiming, cap: 10_000, alive: 0 });
    const create = plan.tokens.find((t) => t.label === 'create deployments/nginx by kubernetes-admin')!;
    expect(create.tone).toBe(Tone.User);
    expect(create.holdMs).toBe(defaultTiming.holdMs);
    expect(create.parkMs).toBe(0);
    const route = requestRoute(layout, 'user', undefined);
    expect(create.points).toEqual(route);
    expect(route.at(-1)!.x).toBe(layout.etcd.x);
    const rs = plan.tokens.find((t) => t.request?.verb === 'create' && t.request.resource === 'replicasets')!;
    expect(rs.tone).toBe(Tone.Controller);
    expect(inside(requestRoute(layout, rs.request!.from, undefined)[0], layout.controllers.get('deployment-controller')!)).toBe(true);
    expect(rs.edge).toBe('request:kcm');
  });

  it("does not draw the page's own watch deliveries; draws the components' ones to them", () => {
    const plan = planTokens({ ...flow, requests: [] }, layout, { ...defaultTiming, cap: 10_000, alive: 0 });
    expect(plan.tokens.every((t) => t.kind === 'watch' && t.delivery?.to !== 'user')).toBe(true);
    const toNode1 = plan.tokens.find((t) => t.delivery?.to === 'kubelet:node-1')!;
    expect(toNode1.points).toEqual(deliveryRoute(layout, 'kubelet:node-1'));
    expect(toNode1.edge).toBe('watch:kubelet:node-1');
  });

  it('staggers a batch in trace order and counts the reconciles per controller', () => {
    const plan = planTokens(flow, layout, { ...defaultTiming, cap: 10_000, alive: 0 });
    const seqs = plan.tokens.map((t) => Number(t.id.split('-')[1]));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const delays = plan.tokens.map((t) => t.delayMs);
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
    expect(Math.max(...delays)).toBe(defaultTiming.maxStaggerMs);
    expect(plan.reconciles['deployment-controller']).toBe(flow.reconciles.filter((r) => r.controller === 'deployment-controller').length);
  });
});

describe('tokenKeyframes', () => {
  const route = [
    { x: 0, y: 0 },
    { x: 30, y: 0 },
    { x: 30, y: 10 },
  ];

  it('reaches each corner at its share of the length, fading in and out (or staying, when parked)', () => {
    const frames = tokenKeyframes(route, false, false);
    const corners = frames.filter((f) => f.transform);
    expect(corners.map((f) => f.offset)).toEqual([0, 0.75, 1]);
    expect(corners.map((f) => f.transform)).toEqual(['translate(0px, 0px) translate(-50%, -50%)', 'translate(30px, 0px) translate(-50%, -50%)', 'translate(30px, 10px) translate(-50%, -50%)']);
    expect(frames[0].opacity).toBe(0);
    expect(frames.at(-1)!.opacity).toBe(0);
    expect(frames.map((f) => f.offset)).toEqual([...frames.map((f) => f.offset)].sort());
    expect(tokenKeyframes(route, true, false).at(-1)!.opacity).toBe(1);
  });

  it('rests at the end for the hold share of the animation before fading', () => {
    const frames = tokenKeyframes(route, false, false, 0.5);
    const corners = frames.filter((f) => f.transform);
    expect(corners.map((f) => f.offset)).toEqual([0, 0.375, 0.5, 1]);
    expect(corners.at(-1)!.transform).toBe(corners.at(-2)!.transform);
    expect(frames.find((f) => f.offset === 0.97)?.opacity).toBe(1);
    expect(frames.at(-1)!.opacity).toBe(0);
  });

  it('does not travel with reduced motion: it shows at the end of its route', () => {
    const frames = tokenKeyframes(route, false, true);
    expect(new Set(frames.filter((f) => f.transform).map((f) => f.transform))).toEqual(new Set(['translate(30px, 10px) translate(-50%, -50%)']));
  });
});
