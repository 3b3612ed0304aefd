// Scenario: the nginx Deployment and its Service (the playground's 'service' sample) on a default cluster. The
// endpointslice and endpoints controllers follow the pods as they come, go, turn unready and terminate; the
// slices go with the Service (garbage collector, owner reference) and the Endpoints object with it too.
import type { Endpoints, Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { KubeObject } from '../../shared/api/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestCluster } from '../testing/test-cluster';
import { bootCluster, isPodReady, podsOf } from './harness';

const nginxDeployment = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
spec:
  selector:
    matchLabels:
      app: nginx
  replicas: 3
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`;

const nginxService = `
apiVersion: v1
kind: Service
metadata:
  name: nginx
spec:
  selector:
    app: nginx
  ports:
  - protocol: TCP
    port: 80
    targetPort: 80
`;

describe('scenario: endpoints of the nginx Service', () => {
  let tc: TestCluster;

  beforeEach(async () => {
    tc = await bootCluster();
    tc.apply(nginxDeployment);
    tc.apply(nginxService);
    tc.runUntil(() => readyEndpoints().length === 3 && readyAddresses().length === 3, 60_000, '3 ready endpoints');
  });
  afterEach(() => tc.close());

  const slices = () => tc.list('endpointslices', 'default', 'kubernetes.io/service-name=nginx') as unknown as EndpointSlice[];
  const allEndpoints = () => slices().flatMap((s) => s.endpoints ?? []);
  const readyEndpoints = () => allEndpoints().filter((e) => e.conditions?.ready === true);
  const endpoints = () => tc.get('endpoints', 'default', 'nginx') as Endpoints | undefined;
  const readyAddresses = () => (endpoints()?.subsets ?? []).flatMap((s) => s.addresses ?? []);
  const notReadyAddresses = () => (endpoints()?.subsets ?? []).flatMap((s) => s.notReadyAddresses ?? []);
  const endpointFor = (pod: string) => allEndpoints().find((e) => e.targetRef?.name === pod);

  it('lists the 3 ready pods in one EndpointSlice owned by the Service and in the Endpoints object', () => {
    const service = tc.get('service', 'default', 'nginx') as Service;
    const [slice, ...more] = slices();
    expect(more).toHaveLength(0);
    expect(slice.metadata?.name).toMatch(/^nginx-[a-z0-9]{5}$/);
    expect(slice.metadata?.generateName).toBe('nginx-');
    expect(slice.metadata?.labels).toEqual({
      'kubernetes.io/service-name': 'nginx',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(slice.metadata?.ownerReferences).toEqual([
      { apiVersion: 'v1', kind: 'Service', name: 'nginx', uid: service.metadata?.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: '', port: 80, protocol: 'TCP' }]);
    expect(slice.metadata?.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const pods = podsOf(tc, 'default', 'app=nginx');
    expect(slice.endpoints).toHaveLength(3);
    for (const pod of pods) {
      const ep = endpointFor(pod.metadata!.name!)!;
      const node = tc.client.nodes.get(pod.spec!.nodeName!);
      expect(ep.addresses).toEqual([pod.status!.podIP]);
      expect(ep.conditions).toEqual({ ready: true, serving: true, terminating: false });
      expect(ep.nodeName).toBe(pod.spec!.nodeName);
      expect(ep.zone).toBe(node.metadata?.labels?.['topology.kubernetes.io/zone']);
      expect(ep.targetRef).toEqual({ kind: 'Pod', namespace: 'default', name: pod.metadata!.name, uid: pod.metadata!.uid });
    }

    const eps = endpoints()!;
    expect(eps.subsets).toHaveLength(1);
    expect(eps.subsets![0].ports).toEqual([{ port: 80, protocol: 'TCP' }]);
    expect(readyAddresses().map((a) => a.ip).sort()).toEqual(pods.map((p) => p.status!.podIP).sort());
    expect(readyAddresses().every((a) => a.targetRef?.kind === 'Pod' && a.nodeName)).toBe(true);
    expect(eps.metadata?.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']).toBeDefined();
    expect(eps.metadata?.annotations?.['endpoints.kubernetes.io/over-capacity']).toBeUndefined();
  });

  it('shrinks both when the Deployment scales to 1', () => {
    tc.client.deployments.patch('nginx-deployment', 'application/merge-patch+json', { spec: { replicas: 1 } }, { namespace: 'default' });
    tc.runUntil(() => allEndpoints().length === 1 && readyAddresses().length === 1 && notReadyAddresses().length === 0, 60_000, 'one endpoint');
    const [pod] = podsOf(tc, 'default', 'app=nginx').filter((p) => !p.metadata?.deletionTimestamp);
    expect(allEndpoints()[0].targetRef?.name).toBe(pod.metadata?.name);
    expect(readyAddresses()[0].ip).toBe(pod.status?.podIP);
    expect(slices()).toHaveLength(1);
  });

  it('moves a pod that fails its readiness probe to notReadyAddresses and ready=false', () => {
    tc.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'unready', labels: { app: 'nginx' } },
      spec: {
        containers: [
          { name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }], readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 2 } },
        ],
      },
    } as unknown as KubeObject);
    tc.runUntil(() => notReadyAddresses().some((a) => a.targetRef?.name === 'unready'), 60_000, 'unready pod listed');
    const pod = tc.client.pods.get('unready', { namespace: 'default' });
    expect(notReadyAddresses().map((a) => a.ip)).toEqual([pod.status?.podIP]);
    expect(readyAddresses()).toHaveLength(3);
    expect(endpointFor('unready')?.conditions).toEqual({ ready: false, serving: false, terminating: false });
    expect(readyEndpoints()).toHaveLength(3);
  });

  it('shows a terminating pod as terminating=true in its slice and drops it from Endpoints', () => {
    tc.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'slow', labels: { app: 'nginx' } },
      spec: {
        terminationGracePeriodSeconds: 30,
        containers: [{ name: 'app', image: 'busybox', command: ['sh', '-c', 'sleep 3600'], ports: [{ containerPort: 80 }] }],
      },
    } as unknown as KubeObject);
    tc.runUntil(() => endpointFor('slow')?.conditions?.ready === true && readyAddresses().length === 4, 60_000, 'slow pod ready');
    tc.client.pods.delete('slow', { namespace: 'default' });
    tc.runUntil(() => endpointFor('slow')?.conditions?.terminating === true, 10_000, 'slow pod terminating');
    // Ready is never true for a terminating pod; serving still follows its readiness (as the kubelet reports it).
    tc.advance(3_000); // well within the 30 s grace period: the slice has caught up with the kubelet's status
    const terminating = tc.client.pods.get('slow', { namespace: 'default' });
    expect(terminating.metadata.deletionTimestamp).toBeDefined();
    expect(endpointFor('slow')?.conditions).toEqual({ ready: false, serving: isPodReady(terminating), terminating: true });
    tc.runUntil(() => readyAddresses().length === 3, 10_000, 'slow pod out of Endpoints');
    expect([...readyAddresses(), ...notReadyAddresses()].some((a) => a.targetRef?.name === 'slow')).toBe(false);
    // After the grace period the pod is gone, and so is its endpoint.
    tc.runUntil(() => endpointFor('slow') === undefined, 60_000, 'slow pod gone');
    expect(allEndpoints()).toHaveLength(3);
  });

  it('removes the slices and the Endpoints object with the Service', () => {
    expect(slices()).toHaveLength(1);
    tc.delete('service', 'default', 'nginx');
    tc.runUntil(() => slices().length === 0 && endpoints() === undefined, 60_000, 'slices and endpoints removed');
    expect(tc.list('endpointslices', 'default').filter((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === 'nginx')).toHaveLength(0);
  });

  it('leaves a Service without a selector alone, and gives a headless Service endpoints too', () => {
    tc.apply({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'manual' }, spec: { ports: [{ port: 80 }] } } as unknown as KubeObject);
    tc.apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'headless' },
      spec: { clusterIP: 'None', selector: { app: 'nginx' }, ports: [{ name: 'http', port: 8080, targetPort: 80 }] },
    } as unknown as KubeObject);
    tc.runUntil(() => (tc.get('endpoints', 'default', 'headless') as Endpoints | undefined)?.subsets?.[0]?.addresses?.length === 3, 60_000, 'headless endpoints');
    tc.settle();
    expect(tc.get('endpoints', 'default', 'manual')).toBeUndefined();
    expect(tc.list('endpointslices', 'default', 'kubernetes.io/service-name=manual')).toHaveLength(0);
    const headless = tc.get('endpoints', 'default', 'headless') as Endpoints;
    expect(headless.metadata?.labels).toEqual({ 'service.kubernetes.io/headless': '' });
    expect(headless.subsets?.[0].ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP' }]);
    const [slice] = tc.list('endpointslices', 'default', 'kubernetes.io/service-name=headless') as unknown as EndpointSlice[];
    expect(slice.metadata?.labels?.['service.kubernetes.io/headless']).toBe('');
    expect(slice.ports).toEqual([{ name: 'http', port: 80, protocol: 'TCP' }]);
    expect(slice.endpoints).toHaveLength(3);
  });
});
