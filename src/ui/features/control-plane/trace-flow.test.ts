import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowOutput } from './trace-flow';
import { componentOfUser, createFlowCorrelator, deliveryLabel, parseStoreKey, requestLabel, requestObject } from './trace-flow';
import type { RealTrace } from './headless-trace.fixture';
import { realTrace } from './headless-trace.fixture';

let trace: RealTrace;
let flow: FlowOutput;

beforeAll(async () => {
  trace = await realTrace();
  flow = createFlowCorrelator().ingest(trace.events);
});
afterAll(() => trace.close());

describe('componentOfUser', () => {
  it('maps the components Kubernetes users to their components, anyone else to the user', () => {
    expect(componentOfUser('system:kube-controller-manager')).toBe('kcm');
    expect(componentOfUser('system:kube-scheduler')).toBe('scheduler');
    expect(componentOfUser('system:node:node-2')).toBe('kubelet:node-2');
    expect(componentOfUser('kubernetes-admin')).toBe('user');
    expect(componentOfUser('jane')).toBe('user');
    expect(componentOfUser('system:node:')).toBe('user');
  });
});

describe('the flow of a real trace (nginx applied through the page, after a refused typo)', () => {
  it("makes one request per api.request…api.response, the user's create with what it committed", () => {
    const requests = trace.events.filter((e) => e.kind === 'api.request').length;
    const responses = trace.events.filter((e) => e.kind === 'api.response').length;
    expect(flow.requests).toHaveLength(Math.min(requests, responses));
    const create = flow.requests.find((r) => r.user === 'kubernetes-admin' && r.verb === 'create' && r.resource === 'deployments' && r.code === 201)!;
    expect(create.from).toBe('user');
    expect(create.writes).toEqual([{ type: 'PUT', key: '/registry/apps/deployments/default/nginx' }]);
    expect(create.revision).toBeGreaterThan(0);
    expect(create.stages.map((s) => s.stage)).toEqual(
      expect.arrayContaining(['authentication', 'authorization', 'decode', 'mutating-admission', 'validation', 'validating-admission', 'persistence']),
    );
    expect(create.stages.every((s) => s.decision === 'pass')).toBe(true);
    expect(requestLabel(create)).toBe('create deployments/nginx by kubernetes-admin');
    expect(requestObject(create)).toMatchObject({ resourceKey: 'apps/deployments', key: 'default/nginx' });
  });

  it('stops the strict-decoding typo at the decode stage with the API server message, and it writes nothing', () => {
    const refused = flow.requests.filter((r) => r.refusedAt !== undefined);
    expect(refused).toHaveLength(1);
    const [r] = refused;
    expect(r).toMatchObject({ verb: 'create', resource: 'deployments', user: 'kubernetes-admin', from: 'user', refusedAt: 'decode', code: 400, reason: 'BadRequest' });
    expect(r.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"');
    expect(r.writes).toEqual([]);
    expect(r.stages.at(-1)).toMatchObject({ stage: 'decode', decision: 'refuse' });
    // kubectl apply's GET before it (404) is an answer, not a refusal.
    const get = flow.requests.find((q) => q.verb === 'get' && q.resource === 'deployments' && q.code === 404);
    expect(get?.refusedAt).toBeUndefined();
  });

  it('names the controller behind each kube-controller-manager request through the cause chain', () => {
    const from = (verb: string, resource: string) => new Set(flow.requests.filter((r) => r.verb === verb && r.resource === resource && r.user === 'system:kube-controller-manager').map((r) => r.from));
    expect(from('create', 'replicasets')).toEqual(new Set(['controller:deployment-controller']));
    expect(from('create', 'pods')).toEqual(new Set(['controller:replicaset-controller']));
    expect(from('update', 'deployments/status')).toEqual(new Set(['controller:deployment-controller']));
  });

  it("maps the scheduler's bindings and the kubelets' status updates to them", () => {
    const bindings = flow.requests.filter((r) => r.resource === 'pods/binding');
    expect(bindings).toHaveLength(3);
    expect(bindings.every((b) => b.from === 'scheduler' && b.code === 201)).toBe(true);
    const statuses = flow.requests.filter((r) => r.resource === 'pods/status' && r.user.startsWith('system:node:'));
    expect(statuses.length).toBeGreaterThan(0);
    for (const s of statuses) expect(s.from).toBe(`kubelet:${s.user.slice('system:node:'.length)}`);
    const scheduled = flow.schedules.filter((s) => s.result === 'Scheduled');
    expect(scheduled).toHaveLength(3);
    expect(new Set(scheduled.map((s) => s.node))).toEqual(new Set(bindings.map((b) => b.name && trace.h.cluster.client.pods.get(b.name, { namespace: 'default' }).spec?.nodeName)));
  });

  it('sends each watch delivery to its watcher, with the keys its revision committed', () => {
    const deploymentsToKcm = flow.deliveries.find((d) => d.resource === 'deployments' && d.to === 'kcm' && d.keys.includes('/registry/apps/deployments/default/nginx'));
    expect(deploymentsToKcm?.user).toBe('system:kube-controller-manager');
    expect(flow.deliveries.some((d) => d.resource === 'pods' && d.to === 'scheduler')).toBe(true);
    const nodes = trace.h.cluster.client.nodes.list().items.map((n) => n.metadata.name!);
    for (const node of nodes) expect(flow.deliveries.some((d) => d.resource === 'pods' && d.to === `kubelet:${node}`)).toBe(true);
    // The page's own pods watch (the acting user) is a delivery to the user.
    expect(flow.deliveries.some((d) => d.resource === 'pods' && d.to === 'user' && d.user === 'kubernetes-admin')).toBe(true);
    const d = deploymentsToKcm!;
    expect(deliveryLabel(d)).toBe(`watch deployments (${d.count} ${d.count === 1 ? 'event' : 'events'}, revision ${d.revision}) to kube-controller-manager`);
  });

  it('reports the reconciles that happened', () => {
    const controllers = new Set(flow.reconciles.map((r) => r.controller));
    expect(controllers).toContain('deployment-controller');
    expect(controllers).toContain('replicaset-controller');
    expect(flow.reconciles.find((r) => r.controller === 'deployment-controller')?.key).toBe('default/nginx');
  });

  it('gives the same flow whether the events come in one batch or split anywhere', () => {
    const cuts = [7, 100, Math.floor(trace.events.length / 2), trace.events.length - 3];
    const correlator = createFlowCorrelator();
    const parts: FlowOutput[] = [];
    let from = 0;
    for (const cut of [...cuts, trace.events.length]) {
      parts.push(correlator.ingest(trace.events.slice(from, cut)));
      from = cut;
    }
    expect(parts.flatMap((p) => p.requests)).toEqual(flow.requests);
    expect(parts.flatMap((p) => p.deliveries)).toEqual(flow.deliveries);
  });
});

describe('parseStoreKey', () => {
  it('reads namespaced, cluster-scoped and core keys', () => {
    expect(parseStoreKey('/registry/apps/deployments/default/nginx')).toEqual({ resourceKey: 'apps/deployments', key: 'default/nginx', group: 'apps', resource: 'deployments', namespace: 'default', name: 'nginx' });
    expect(parseStoreKey('/registry/core/nodes/node-1')).toMatchObject({ resourceKey: '/nodes', key: 'node-1', namespace: '' });
    expect(parseStoreKey('/registry/core/pods/default/web')).toMatchObject({ resourceKey: '/pods', key: 'default/web' });
    expect(parseStoreKey('/elsewhere/x')).toBeUndefined();
  });
});
