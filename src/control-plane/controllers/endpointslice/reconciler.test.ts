import type { Node, Pod, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { describe, expect, it } from 'vitest';
import type { Client } from '../../client/client';
import type { Lister } from '../../informers/shared-informer';
import { EndpointSliceTracker } from './endpointslice-tracker';
import { findPort, getEndpointPorts, podToEndpoint, shouldPodBeInEndpoints } from './endpointslice-util';
import { Reconciler } from './reconciler';
import { formatRFC3339Nano, TriggerTimeTracker } from './trigger-time-tracker';

const service: Service = {
  metadata: { name: 'web', namespace: 'default', uid: 'svc-uid', labels: { team: 'a' }, creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }] },
};

function pod(i: number, opts: { ready?: boolean; port?: number; deleting?: boolean; ip?: string | null } = {}): Pod {
  const ready = opts.ready ?? true;
  return {
    metadata: { name: `web-${i}`, namespace: 'default', uid: `uid-${i}`, labels: { app: 'web' }, ...(opts.deleting ? { deletionTimestamp: '2026-01-01T00:01:00Z' } : {}) },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', ports: [{ name: 'http', containerPort: opts.port ?? 8080 }] }] },
    status: {
      phase: 'Running',
      ...(opts.ip === null ? {} : { podIP: opts.ip ?? `10.244.${Math.floor(i / 250)}.${(i % 250) + 2}` }),
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2026-01-01T00:00:05Z' }],
    },
  };
}

const node: Node = { metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'zone-a' } } };
const nodeLister = { get: (_ns: string | undefined, name: string) => (name === 'node-1' ? node : undefined) } as unknown as Lister<Node>;

/** An in-memory endpointslices API recording the writes, standing in for the API server. */
function fakeClient() {
  const slices = new Map<string, EndpointSlice>();
  const writes: string[] = [];
  let n = 0;
  let generation = 0;
  const endpointSlices = {
    create(s: EndpointSlice) {
      const name = `${s.metadata!.generateName}${(n++).toString().padStart(5, 'x')}`;
      const created = { ...structuredClone(s), metadata: { ...s.metadata, name, uid: `slice-${name}`, generation: ++generation } };
      slices.set(name, created);
      writes.push(`create ${name}`);
      return created;
    },
    update(s: EndpointSlice) {
      const updated = { ...structuredClone(s), metadata: { ...s.metadata, uid: slices.get(s.metadata!.name!)?.metadata?.uid, generation: ++generation } };
      slices.set(s.metadata!.name!, updated);
      writes.push(`update ${s.metadata!.name}`);
      return updated;
    },
    delete(name: string) {
      slices.delete(name);
      writes.push(`delete ${name}`);
    },
  };
  return { client: { endpointSlices } as unknown as Client, slices, writes };
}

function newReconciler(max?: number) {
  const fake = fakeClient();
  const r = new Reconciler({ client: fake.client, nodeLister, tracker: new EndpointSliceTracker(), maxEndpointsPerSlice: max });
  return { r, ...fake, list: () => [...fake.slices.values()] };
}

describe('endpointslice utilities', () => {
  it('resolves named and numeric target ports on the pod', () => {
    expect(findPort(pod(0, { port: 9376 }), { port: 80, targetPort: 'http' })).toBe(9376);
    expect(findPort(pod(0), { port: 80, targetPort: 8081 })).toBe(8081);
    expect(findPort(pod(0), { port: 80 })).toBe(80);
    expect(() => findPort(pod(0), { port: 80, targetPort: 'metrics' })).toThrow();
    // A pod without the named port contributes no port for it.
    expect(getEndpointPorts({ spec: { ports: [{ name: 'm', port: 9, targetPort: 'metrics' }] } }, pod(0))).toEqual([]);
  });

  it('keeps pods with an IP that are not terminal; terminating ones only when asked', () => {
    expect(shouldPodBeInEndpoints(pod(0), false)).toBe(true);
    expect(shouldPodBeInEndpoints(pod(0, { ip: null }), true)).toBe(false);
    expect(shouldPodBeInEndpoints({ ...pod(0), status: { ...pod(0).status, phase: 'Succeeded' } }, true)).toBe(false);
    expect(shouldPodBeInEndpoints(pod(0, { deleting: true }), false)).toBe(false);
    expect(shouldPodBeInEndpoints(pod(0, { deleting: true }), true)).toBe(true);
  });

  it('computes ready, serving and terminating as the real controller does', () => {
    expect(podToEndpoint(pod(0), node, service, 'IPv4').conditions).toEqual({ ready: true, serving: true, terminating: false });
    expect(podToEndpoint(pod(0, { ready: false }), node, service, 'IPv4').conditions).toEqual({ ready: false, serving: false, terminating: false });
    expect(podToEndpoint(pod(0, { deleting: true }), node, service, 'IPv4').conditions).toEqual({ ready: false, serving: true, terminating: true });
    const publish = { ...service, spec: { ...service.spec, publishNotReadyAddresses: true } };
    expect(podToEndpoint(pod(0, { ready: false }), node, publish, 'IPv4').conditions).toEqual({ ready: true, serving: false, terminating: false });
    const ep = podToEndpoint(pod(3), node, service, 'IPv4');
    expect(ep).toMatchObject({ addresses: ['10.244.0.5'], nodeName: 'node-1', zone: 'zone-a', targetRef: { kind: 'Pod', name: 'web-3', uid: 'uid-3' } });
  });

  it('tracks the last change trigger time: service creation first, then changed pods only', () => {
    const t = new TriggerTimeTracker();
    expect(t.computeEndpointLastChangeTriggerTime('default', service, [pod(0)])).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(t.computeEndpointLastChangeTriggerTime('default', service, [pod(0)])).toBeUndefined();
    const later = pod(1);
    later.status!.conditions![0].lastTransitionTime = '2026-01-01T00:02:00Z';
    expect(t.computeEndpointLastChangeTriggerTime('default', service, [pod(0), later])).toBe(Date.parse('2026-01-01T00:02:00Z'));
    expect(formatRFC3339Nano(Date.parse('2026-01-01T00:02:00Z'))).toBe('2026-01-01T00:02:00Z');
    expect(formatRFC3339Nano(Date.parse('2026-01-01T00:02:00.250Z'))).toBe('2026-01-01T00:02:00.25Z');
  });
});

describe('Reconciler', () => {
  it('creates one slice with the resolved ports, labels and owner', () => {
    const { r, list } = newReconciler();
    r.reconcile(service, [pod(0), pod(1, { ready: false })], [], Date.parse('2026-01-01T00:00:00Z'));
    const [s, ...rest] = list();
    expect(rest).toHaveLength(0);
    expect(s.metadata?.generateName).toBe('web-');
    expect(s.metadata?.labels).toEqual({ team: 'a', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    expect(s.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Service', name: 'web', uid: 'svc-uid', controller: true });
    expect(s.metadata?.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toBe('2026-01-01T00:00:00Z');
    expect(s.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(s.endpoints?.map((e) => [e.targetRef?.name, e.conditions?.ready])).toEqual([['web-0', true], ['web-1', false]]);
  });

  it('splits at maxEndpointsPerSlice and groups pods by their resolved ports', () => {
    const { r, list } = newReconciler();
    const pods = Array.from({ length: 250 }, (_, i) => pod(i));
    pods.push(pod(900, { port: 9090 }));
    r.reconcile(service, pods, [], undefined);
    const sizes = list().map((s) => [s.ports?.[0].port, s.endpoints?.length]).sort();
    expect(sizes).toEqual([[8080, 100], [8080, 100], [8080, 50], [9090, 1]].sort());
  });

  it('does not write when nothing changed, and updates in place when a pod turns unready', () => {
    const { r, list, writes } = newReconciler();
    r.reconcile(service, [pod(0), pod(1)], [], undefined);
    writes.length = 0;
    r.reconcile(service, [pod(0), pod(1)], list(), undefined);
    expect(writes).toEqual([]);
    r.reconcile(service, [pod(0), pod(1, { ready: false })], list(), undefined);
    expect(writes).toEqual([expect.stringMatching(/^update web-/)]);
    expect(list()[0].endpoints?.find((e) => e.targetRef?.name === 'web-1')?.conditions?.ready).toBe(false);
  });

  it('leaves a placeholder slice when no pod is left, and keeps it', () => {
    const { r, list, writes } = newReconciler();
    r.reconcile(service, [pod(0)], [], undefined);
    r.reconcile(service, [], list(), undefined);
    const [placeholder, ...rest] = list();
    expect(rest).toHaveLength(0);
    // The emptied slice is recycled as the placeholder (an update rather than a delete and a create).
    expect(writes[writes.length - 1]).toMatch(/^update web-/);
    expect(placeholder.endpoints).toEqual([]);
    expect(placeholder.ports).toEqual([]);
    writes.length = 0;
    r.reconcile(service, [], list(), undefined);
    expect(writes).toEqual([]);
  });

  it('deletes slices not owned by the service', () => {
    const { r, list, slices } = newReconciler();
    r.reconcile(service, [pod(0)], [], undefined);
    const foreign: EndpointSlice = { ...structuredClone(list()[0]), metadata: { ...list()[0].metadata, name: 'web-foreign', uid: 'f', ownerReferences: [] } };
    slices.set('web-foreign', foreign);
    r.reconcile(service, [pod(0)], list(), undefined);
    expect(list().map((s) => s.metadata?.name)).not.toContain('web-foreign');
    expect(list()).toHaveLength(1);
  });
});
