// Services of type LoadBalancer on a whole cluster: the simulated cloud's pool, the finalizer, the events and
// status the cloud-controller-manager's service controller writes, and what `kubectl get svc` prints.
import type { Service } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import { kubectl } from '../../../kubectl/cli/testing';
import { bootCluster, eventsFor } from '../../scenarios/harness';
import type { TestCluster } from '../../testing/test-cluster';
import { LoadBalancerPool, inLoadBalancerPool } from './load-balancer-pool';
import { LoadBalancerCleanupFinalizer, needsCleanup, needsUpdate, wantsLoadBalancer } from './service-controller';

const lb = (name: string, spec: Partial<NonNullable<Service['spec']>> = {}): Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'default' },
  spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }], ...spec },
});

const svcOf = (tc: TestCluster, name: string): Service => tc.client.services.get(name, { namespace: 'default' });
const ipOf = (tc: TestCluster, name: string): string | undefined => svcOf(tc, name).status?.loadBalancer?.ingress?.[0]?.ip;
const reasons = (tc: TestCluster, name: string): string[] => eventsFor(tc, 'Service', name).map((e) => `${e.type} ${e.reason} ${e.message}`);

describe('LoadBalancerPool', () => {
  it('hands out the lowest free address of 192.168.49.200-254, reuses freed ones, and runs out after 55', () => {
    const pool = new LoadBalancerPool();
    expect(pool.allocate('a')).toBe('192.168.49.200');
    expect(pool.allocate('b')).toBe('192.168.49.201');
    expect(pool.allocate('a')).toBe('192.168.49.200');
    expect(pool.release('a')).toBe(true);
    expect(pool.release('a')).toBe(false);
    expect(pool.allocate('c')).toBe('192.168.49.200');
    for (let i = 0; i < 53; i++) pool.allocate(`x${i}`);
    expect(pool.allocated()).toHaveLength(55);
    expect(pool.allocated().at(-1)).toBe('192.168.49.254');
    expect(() => pool.allocate('late')).toThrow('no available IPs in the load balancer pool 192.168.49.200-192.168.49.254');
  });

  it('honours a requested address in the pool, refuses one outside or taken', () => {
    const pool = new LoadBalancerPool();
    expect(pool.allocate('a', '192.168.49.240')).toBe('192.168.49.240');
    expect(() => pool.allocate('b', '192.168.49.240')).toThrow('requested IP 192.168.49.240 is already allocated');
    expect(() => pool.allocate('b', '10.0.0.1')).toThrow('requested IP 10.0.0.1 is not in the load balancer pool 192.168.49.200-192.168.49.254');
    expect(pool.adopt('c', '192.168.49.240')).toBe(false);
    expect(inLoadBalancerPool('192.168.49.199')).toBe(false);
    expect(inLoadBalancerPool('192.168.49.0200')).toBe(false);
  });

  it('decides like the real controller which Services it acts on', () => {
    expect(wantsLoadBalancer(lb('a'))).toBe(true);
    expect(wantsLoadBalancer(lb('a', { loadBalancerClass: 'example.com/lb' }))).toBe(false);
    expect(wantsLoadBalancer(lb('a', { type: 'NodePort' }))).toBe(false);
    const held = { ...lb('a', { type: 'ClusterIP' }), metadata: { name: 'a', finalizers: [LoadBalancerCleanupFinalizer] } };
    expect(needsCleanup(held)).toBe(true);
    expect(needsUpdate(lb('a'), lb('a', { ports: [{ port: 81 }] }))).toBe(true);
    expect(needsUpdate(lb('a'), lb('a'))).toBe(false);
  });
});

describe('Service type LoadBalancer on a cluster', () => {
  let tc: TestCluster;
  afterEach(async () => {
    await tc?.close();
  });

  it('shows <pending>, then the address; adds the finalizer, the events and ipMode VIP', async () => {
    tc = await bootCluster({ nodes: 1 });
    tc.client.services.create(lb('web'));
    const pending = await kubectl(tc.cluster, 'kubectl get svc web');
    const nodePort = svcOf(tc, 'web').spec?.ports?.[0]?.nodePort;
    expect(pending.stdout).toMatch(new RegExp(`^NAME +TYPE +CLUSTER-IP +EXTERNAL-IP +PORT\\(S\\) +AGE\\nweb +LoadBalancer +10\\.\\d+\\.\\d+\\.\\d+ +<pending> +80:${nodePort}/TCP +0s\\n$`));

    tc.settle();
    const svc = svcOf(tc, 'web');
    expect(svc.status?.loadBalancer?.ingress).toEqual([{ ip: '192.168.49.200', ipMode: 'VIP' }]);
    expect(svc.metadata?.finalizers).toEqual([LoadBalancerCleanupFinalizer]);
    expect(reasons(tc, 'web')).toEqual(['Normal EnsuringLoadBalancer Ensuring load balancer', 'Normal EnsuredLoadBalancer Ensured load balancer']);
    expect(eventsFor(tc, 'Service', 'web')[0]?.source?.component).toBe('service-controller');
    const after = await kubectl(tc.cluster, 'kubectl get svc web');
    expect(after.stdout).toMatch(new RegExp(`\\nweb +LoadBalancer +10\\.\\S+ +192\\.168\\.49\\.200 +80:${nodePort}/TCP +`));

    // allocateLoadBalancerNodePorts: false — no node port, the load balancer still gets its address.
    tc.client.services.create(lb('direct', { allocateLoadBalancerNodePorts: false }));
    tc.settle();
    expect(ipOf(tc, 'direct')).toBe('192.168.49.201');
    expect((await kubectl(tc.cluster, 'kubectl get svc direct')).stdout).toMatch(/\ndirect +LoadBalancer +\S+ +192\.168\.49\.201 +80\/TCP +/);
  });

  it('releases the address when the Service is deleted (through the finalizer) or stops being a LoadBalancer', async () => {
    tc = await bootCluster({ nodes: 1 });
    tc.client.services.create(lb('a'));
    tc.client.services.create(lb('b'));
    tc.settle();
    expect([ipOf(tc, 'a'), ipOf(tc, 'b')]).toEqual(['192.168.49.200', '192.168.49.201']);

    tc.client.services.delete('a', { namespace: 'default' });
    // Held by the finalizer until the load balancer is gone.
    expect(svcOf(tc, 'a').metadata?.deletionTimestamp).toBeDefined();
    tc.settle();
    expect(() => svcOf(tc, 'a')).toThrow('services "a" not found');
    const deleted = tc.client.events.list({ namespace: 'default' }).items.filter((e) => e.involvedObject.name === 'a').map((e) => e.reason);
    expect(deleted).toEqual(['EnsuringLoadBalancer', 'EnsuredLoadBalancer', 'DeletingLoadBalancer', 'DeletedLoadBalancer']);

    // Type change: status cleared, finalizer removed, address free for the next one.
    tc.client.services.patch('b', 'application/merge-patch+json', { spec: { type: 'ClusterIP' } }, { namespace: 'default' });
    tc.settle();
    const b = svcOf(tc, 'b');
    expect(b.status?.loadBalancer).toEqual({});
    expect(b.metadata?.finalizers).toBeUndefined();
    expect(reasons(tc, 'b').slice(-2)).toEqual(['Normal DeletingLoadBalancer Deleting load balancer', 'Normal DeletedLoadBalancer Deleted load balancer']);
    tc.client.services.create(lb('c'));
    tc.settle();
    expect(ipOf(tc, 'c')).toBe('192.168.49.200');
  });

  it('leaves a Service with a loadBalancerClass to its own implementation', async () => {
    tc = await bootCluster({ nodes: 1 });
    tc.client.services.create(lb('classy', { loadBalancerClass: 'example.com/internal' }));
    tc.settle();
    const svc = svcOf(tc, 'classy');
    expect(svc.status?.loadBalancer).toEqual({});
    expect(svc.metadata?.finalizers).toBeUndefined();
    expect(reasons(tc, 'classy')).toEqual([]);
  });

  it('stays <pending> with SyncLoadBalancerFailed when the pool is exhausted, and gets an address once one is freed', async () => {
    tc = await bootCluster({ nodes: 1 });
    for (let i = 0; i < 55; i++) tc.client.services.create(lb(`s${i}`, { allocateLoadBalancerNodePorts: false }));
    tc.settle();
    expect(ipOf(tc, 's54')).toBe('192.168.49.254');
    tc.client.services.create(lb('late', { allocateLoadBalancerNodePorts: false }));
    tc.settle(1_000);
    expect(ipOf(tc, 'late')).toBeUndefined();
    expect(reasons(tc, 'late')).toContain(
      'Warning SyncLoadBalancerFailed Error syncing load balancer: failed to ensure load balancer: no available IPs in the load balancer pool 192.168.49.200-192.168.49.254',
    );
    expect((await kubectl(tc.cluster, 'kubectl get svc late')).stdout).toMatch(/\nlate +LoadBalancer +\S+ +<pending> +80\/TCP +/);

    tc.client.services.delete('s7', { namespace: 'default' });
    // Retried with backoff (5 s, 10 s, …): within the 300 s cap it finds the freed address.
    tc.runUntil(() => ipOf(tc, 'late') !== undefined, 400_000, 'the pending Service gets the freed address');
    expect(ipOf(tc, 'late')).toBe('192.168.49.207');
  });

  it('takes its load balancers back after a controller-manager restart, without handing an address out twice', async () => {
    tc = await bootCluster({ nodes: 1 });
    tc.client.services.create(lb('a'));
    tc.client.services.create(lb('b'));
    tc.settle();
    tc.client.services.patch('a', 'application/merge-patch+json', { spec: { type: 'ClusterIP' } }, { namespace: 'default' });
    tc.settle();
    // A fresh controller would hand b the lowest free address, .200; the adopted cloud state keeps b on .201.
    tc.cluster.controllerManager.restart();
    tc.client.services.create(lb('c'));
    tc.settle();
    expect([ipOf(tc, 'b'), ipOf(tc, 'c')]).toEqual(['192.168.49.201', '192.168.49.200']);
  });
});
