// Ingress on a whole cluster: the ingress addon's default IngressClass, the DefaultIngressClass admission plugin,
// the simulated ingress-nginx (events, status address, class filtering) and `kubectl get ingress` — with the
// Kubernetes docs' Ingress and LoadBalancer manifests as people paste them.
import { existsSync, readFileSync } from 'node:fs';
import type { Ingress } from 'kubernetes-types/networking/v1';
import { afterEach, describe, expect, it } from 'vitest';
import { kubectl } from '../../../kubectl/cli/testing';
import { routeIngress } from '../../network/ingress/route';
import { createCluster } from '../../cluster';
import { bootCluster, eventsFor, objectsOf } from '../../scenarios/harness';
import { MemoryPersistence } from '../../store/persistence/memory-persistence';
import type { TestCluster } from '../../testing/test-cluster';
import { IngressNginxAddress } from './ingress-class';
import { isServedByIngressNginx } from './ingress-controller';

const DOCS = '/work/shared/manifests';
const doc = (path: string): string => readFileSync(`${DOCS}/${path}`, 'utf8');

const ingress = (name: string, spec: Ingress['spec'], annotations?: Record<string, string>): Ingress => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec,
});
const web = { service: { name: 'web', port: { number: 80 } } };
const ingOf = (tc: TestCluster, name: string): Ingress => tc.client.ingresses.get(name, { namespace: 'default' });
const addressOf = (tc: TestCluster, name: string) => ingOf(tc, name).status?.loadBalancer?.ingress;

describe('ingress-nginx on a cluster', () => {
  let tc: TestCluster;
  afterEach(async () => {
    await tc?.close();
  });

  it('comes with the default IngressClass nginx; an Ingress without class gets it, then an address and Sync events', async () => {
    tc = await bootCluster({ nodes: 1 });
    const classes = await kubectl(tc.cluster, 'kubectl get ingressclass');
    expect(classes.stdout).toMatch(/^NAME +CONTROLLER +PARAMETERS +AGE\nnginx +k8s\.io\/ingress-nginx +<none> +\S+\n$/);

    tc.client.ingresses.create(ingress('web', { rules: [{ host: 'hello.example', http: { paths: [{ path: '/', pathType: 'Prefix', backend: web }] } }] }));
    expect(ingOf(tc, 'web').spec?.ingressClassName).toBe('nginx');
    const before = await kubectl(tc.cluster, 'kubectl get ingress web');
    expect(before.stdout).toBe('NAME   CLASS   HOSTS           ADDRESS   PORTS   AGE\nweb    nginx   hello.example             80      0s\n');

    tc.settle();
    expect(addressOf(tc, 'web')).toEqual([{ ip: IngressNginxAddress }]);
    // The controller's own status write is a change too: the second "Scheduled for sync" (x2 on a real cluster).
    const events = eventsFor(tc, 'Ingress', 'web');
    expect(events.map((e) => `${e.type} ${e.reason} ${e.message} ${e.source?.component}`)).toEqual(['Normal Sync Scheduled for sync nginx-ingress-controller']);
    expect(events[0]?.count).toBe(2);
    const after = await kubectl(tc.cluster, 'kubectl get ingress web');
    expect(after.stdout).toMatch(/^NAME +CLASS +HOSTS +ADDRESS +PORTS +AGE\nweb +nginx +hello\.example +192\.168\.49\.2 +80 +\S+\n$/);
  });

  it('serves the nginx class and the deprecated annotation, ignores other classes', async () => {
    tc = await bootCluster({ nodes: 1 });
    tc.apply(`apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: other}
spec: {controller: example.com/other}`);
    tc.client.ingresses.create(ingress('mine', { ingressClassName: 'nginx', defaultBackend: web }));
    tc.client.ingresses.create(ingress('annotated', { defaultBackend: web }, { 'kubernetes.io/ingress.class': 'nginx' }));
    tc.client.ingresses.create(ingress('theirs', { ingressClassName: 'other', defaultBackend: web }));
    tc.client.ingresses.create(ingress('missing', { ingressClassName: 'nope', defaultBackend: web }));
    tc.settle();
    expect(addressOf(tc, 'mine')).toEqual([{ ip: '192.168.49.2' }]);
    expect(addressOf(tc, 'annotated')).toEqual([{ ip: '192.168.49.2' }]);
    expect(ingOf(tc, 'annotated').spec?.ingressClassName).toBeUndefined();
    expect(addressOf(tc, 'theirs')).toBeUndefined();
    expect(addressOf(tc, 'missing')).toBeUndefined();
    expect(eventsFor(tc, 'Ingress', 'theirs')).toEqual([]);

    // An IngressClass created later for the missing class: its Ingress is picked up.
    tc.apply(`apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nope}
spec: {controller: k8s.io/ingress-nginx}`);
    tc.settle();
    expect(addressOf(tc, 'missing')).toEqual([{ ip: '192.168.49.2' }]);

    // What the traffic simulation routes over: the served Ingresses.
    const classes = tc.client.ingressClasses.list().items;
    const served = tc.client.ingresses.list({ namespace: 'default' }).items.filter((i) => isServedByIngressNginx(i, classes));
    expect(served.map((i) => i.metadata?.name).sort()).toEqual(['annotated', 'mine', 'missing']);
    expect(routeIngress(served, { host: 'any.host', path: '/x' })?.backend).toEqual(web);
  });

  it('keeps the addon IngressClass across a reload, and recreates it when deleted (addon manager mode Reconcile)', async () => {
    const persistence = new MemoryPersistence();
    const first = await createCluster({ persistence, nodes: 1 });
    const nginx = first.client.ingressClasses.get('nginx');
    expect(nginx.metadata?.labels?.['addonmanager.kubernetes.io/mode']).toBe('Reconcile');
    await first.close();
    const second = await createCluster({ persistence, nodes: 1 });
    expect(second.client.ingressClasses.get('nginx').metadata?.uid).toBe(nginx.metadata?.uid);
    second.client.ingressClasses.delete('nginx');
    await second.close();
    const third = await createCluster({ persistence, nodes: 1 });
    expect(third.client.ingressClasses.get('nginx').metadata?.uid).not.toBe(nginx.metadata?.uid);
    await third.close();
  });
});

describe.runIf(existsSync(DOCS))('the Kubernetes docs Ingress and LoadBalancer manifests', () => {
  let tc: TestCluster;
  afterEach(async () => {
    await tc?.close();
  });

  it('service/networking: fanout and TLS get the nginx address (PORTS 80, 443); minimal-ingress names a class nobody serves', async () => {
    tc = await bootCluster({ nodes: 1 });
    tc.apply(objectsOf(doc('service/networking/simple-fanout-example.yaml')));
    tc.apply(objectsOf(doc('service/networking/tls-example-ingress.yaml')));
    tc.apply(objectsOf(doc('service/networking/minimal-ingress.yaml')));
    tc.settle();
    const out = (await kubectl(tc.cluster, 'kubectl get ingress')).stdout.split('\n');
    expect(out[0]).toMatch(/^NAME +CLASS +HOSTS +ADDRESS +PORTS +AGE$/);
    expect(out[1]).toMatch(/^minimal-ingress +nginx-example +\* +80 +\S+$/);
    expect(out[2]).toMatch(/^simple-fanout-example +nginx +foo\.bar\.com +192\.168\.49\.2 +80 +\S+$/);
    expect(out[3]).toMatch(/^tls-example-ingress +nginx +https-example\.foo\.com +192\.168\.49\.2 +80, 443 +\S+$/);

    const served = tc.client.ingresses.list({ namespace: 'default' }).items.filter((i) => i.status?.loadBalancer?.ingress);
    expect(routeIngress(served, { host: 'foo.bar.com', path: '/bar/x' })?.backend.service).toEqual({ name: 'service2', port: { number: 8080 } });
    expect(routeIngress(served, { host: 'foo.bar.com', path: '/baz' })).toBeUndefined();
  });

  it('service/networking/default-ingressclass.yaml: a newer default class takes over for new Ingresses', async () => {
    tc = await bootCluster({ nodes: 1 });
    tc.advance(1_000);
    tc.apply(objectsOf(doc('service/networking/default-ingressclass.yaml')));
    tc.apply(objectsOf(doc('service/networking/simple-fanout-example.yaml')));
    tc.settle();
    const fanout = ingOf(tc, 'simple-fanout-example');
    expect(fanout.spec?.ingressClassName).toBe('example-class');
    expect(fanout.status?.loadBalancer?.ingress).toBeUndefined();
  });

  it('service/access/frontend-service.yaml: type LoadBalancer gets an external IP', async () => {
    tc = await bootCluster({ nodes: 1 });
    tc.apply(objectsOf(doc('service/access/frontend-service.yaml')));
    tc.settle();
    const out = (await kubectl(tc.cluster, 'kubectl get svc frontend')).stdout;
    expect(out).toMatch(/\nfrontend +LoadBalancer +10\.\S+ +192\.168\.49\.200 +80:3\d{4}\/TCP +\S+\n$/);
  });
});
