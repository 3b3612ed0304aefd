import type { Service } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import { TraceKind } from '../../shared/protocol/trace';
import { bootCluster, isPodReady, podsOf } from '../scenarios/harness';
import type { TestCluster } from '../testing/test-cluster';

let tc: TestCluster | undefined;
afterEach(async () => {
  await tc?.close();
  tc = undefined;
});

const web = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports: [{containerPort: 80, name: http}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: http}]
---
apiVersion: v1
kind: Pod
metadata: {name: client}
spec:
  containers:
  - name: curl
    image: curlimages/curl:8.14.1
    command: [sleep, infinity]
`;

function readyPods(t: TestCluster, selector: string, n: number): void {
  t.runUntil(() => podsOf(t, 'default', selector).filter(isPodReady).length === n, 120_000, `${n} ready pods ${selector}`);
}

async function bootWeb(): Promise<TestCluster> {
  const t = await bootCluster();
  t.apply(web);
  readyPods(t, 'app=web', 2);
  t.runUntil(() => podsOf(t, 'default', '').some((p) => p.metadata?.name === 'client' && isPodReady(p)), 60_000, 'client ready');
  t.advance(1000);
  return t;
}

const fromClient = { pod: { namespace: 'default', name: 'client' } };

describe('DataPlane', () => {
  it('routes a short Service name to a ready nginx pod, which serves its welcome page, and traces the hops', async () => {
    tc = await bootWeb();
    const svc = tc.client.services.get('web', { namespace: 'default' }) as Service;
    const res = tc.cluster.network.request({ from: fromClient, url: 'http://web' });
    expect(res.ok).toBe(true);
    expect(res.status).toBe(200);
    expect(res.headers?.Server).toBe('nginx/1.27.5');
    expect(res.body).toContain('<title>Welcome to nginx!</title>');
    expect(res.hops.map((h) => h.kind)).toEqual(['dns', 'service', 'pod']);
    expect(res.hops[0].detail).toBe(`web.default.svc.cluster.local → ${svc.spec!.clusterIP}`);
    const podNames = podsOf(tc, 'default', 'app=web').map((p) => p.metadata!.name!);
    expect(podNames).toContain(res.hops[2].object!.name);
    const ev = tc.trace.get(res.traceSeq!);
    expect(ev?.kind).toBe(TraceKind.NetRequest);
    expect((ev?.data.hops as unknown[]).length).toBe(3);
    // Every search-path form and the FQDN reach the same Service; a path nginx has not is its 404 page.
    for (const name of ['web.default', 'web.default.svc', 'web.default.svc.cluster.local', svc.spec!.clusterIP!]) {
      expect(tc.cluster.network.request({ from: fromClient, url: `http://${name}/` }).status).toBe(200);
    }
    const missing = tc.cluster.network.request({ from: fromClient, url: 'http://web/nope' });
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('<center>nginx/1.27.5</center>');
  });

  it('kube-proxy spreads requests over the ready endpoints, and ClientIP affinity pins them', async () => {
    tc = await bootWeb();
    const chosen = new Set<string>();
    for (let i = 0; i < 20; i++) chosen.add(tc.cluster.network.request({ from: fromClient, url: 'http://web' }).hops[2].object!.name);
    expect(chosen.size).toBe(2);
    const svc = tc.client.services.get('web', { namespace: 'default' }) as Service;
    tc.client.services.update({ ...svc, spec: { ...svc.spec, sessionAffinity: 'ClientIP' } });
    tc.advance(1000);
    const pinned = new Set<string>();
    for (let i = 0; i < 10; i++) pinned.add(tc.cluster.network.request({ from: fromClient, url: 'http://web' }).hops[2].object!.name);
    expect(pinned.size).toBe(1);
  });

  it('refuses the connection once the Deployment is scaled to 0, and an unknown name does not resolve', async () => {
    tc = await bootWeb();
    const d = tc.client.deployments.get('web', { namespace: 'default' });
    tc.client.deployments.update({ ...d, spec: { ...d.spec!, replicas: 0 } });
    tc.runUntil(() => podsOf(tc!, 'default', 'app=web').length === 0, 120_000, 'web pods gone');
    tc.advance(1000);
    const res = tc.cluster.network.request({ from: fromClient, url: 'http://web' });
    expect(res.ok).toBe(false);
    expect(res.error).toBe("curl: (7) Failed to connect to web port 80 after 1 ms: Couldn't connect to server");
    expect(res.hops[1]).toMatchObject({ kind: 'service', ok: false });
    expect(tc.cluster.network.request({ from: fromClient, url: 'http://nosuch' }).error).toBe('curl: (6) Could not resolve host: nosuch');
    // The offline cluster reaches nothing outside.
    expect(tc.cluster.network.request({ from: fromClient, url: 'https://example.com' }).error).toBe('curl: (6) Could not resolve host: example.com');
  });

  it('excludes a pod that is not ready from the endpoints kube-proxy picks', async () => {
    tc = await bootCluster();
    tc.apply(`
apiVersion: v1
kind: Pod
metadata: {name: ready, labels: {app: api}}
spec:
  containers: [{name: web, image: httpd:2.4}]
---
apiVersion: v1
kind: Pod
metadata: {name: unready, labels: {app: api}}
spec:
  containers:
  - name: web
    image: httpd:2.4
    readinessProbe: {exec: {command: ['cat', '/tmp/ready']}, periodSeconds: 1}
---
apiVersion: v1
kind: Service
metadata: {name: api}
spec:
  selector: {app: api}
  ports: [{port: 8080, targetPort: 80}]
`);
    tc.apply(web.split('---')[2]);
    tc.runUntil(() => podsOf(tc!, 'default', '').filter((p) => p.status?.phase === 'Running').length === 3, 60_000, 'pods running');
    tc.advance(5000);
    tc.advance(1000);
    const hit = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const res = tc.cluster.network.request({ from: fromClient, url: 'http://api:8080' });
      expect(res.body).toBe('<html><body><h1>It works!</h1></body></html>\n');
      hit.add(res.hops[2].object!.name);
    }
    expect([...hit]).toEqual(['ready']);
    // The Service's port 80 does not exist: no kube-proxy rule, the SYN goes nowhere.
    const wrong = tc.cluster.network.request({ from: fromClient, url: 'http://api' });
    expect(wrong.error).toMatch(/^curl: \(28\) /);
  });

  it('resolves a headless StatefulSet Service to its pods and each pod by name', async () => {
    tc = await bootCluster();
    tc.apply(`
apiVersion: v1
kind: Service
metadata: {name: nginx}
spec:
  clusterIP: None
  selector: {app: sts}
  ports: [{port: 80, name: web}]
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  serviceName: nginx
  replicas: 2
  selector: {matchLabels: {app: sts}}
  template:
    metadata: {labels: {app: sts}}
    spec:
      containers: [{name: nginx, image: registry.k8s.io/nginx-slim:0.27, ports: [{containerPort: 80, name: web}]}]
`);
    tc.apply(web.split('---')[2]);
    readyPods(tc, 'app=sts', 2);
    tc.runUntil(() => isPodReady(tc!.client.pods.get('client', { namespace: 'default' })), 60_000, 'client');
    tc.advance(1000);
    const ips = ['web-0', 'web-1'].map((n) => tc!.client.pods.get(n, { namespace: 'default' }).status!.podIP!);
    const all = tc.cluster.network.lookup('nginx', 'default');
    expect(all.found && [...all.addresses].sort()).toEqual([...ips].sort());
    const one = tc.cluster.network.lookup('web-1.nginx', 'default');
    expect(one).toMatchObject({ found: true, fqdn: 'web-1.nginx.default.svc.cluster.local', addresses: [ips[1]] });
    const res = tc.cluster.network.request({ from: fromClient, url: 'http://web-0.nginx.default.svc.cluster.local' });
    expect(res.status).toBe(200);
    expect(res.hops.map((h) => h.kind)).toEqual(['dns', 'pod']);
    expect(res.hops[1].object?.name).toBe('web-0');
    // A pod A record.
    const podRecord = tc.cluster.network.lookup(`${ips[0].replace(/\./g, '-')}.default.pod.cluster.local`, 'default');
    expect(podRecord).toMatchObject({ found: true, addresses: [ips[0]] });
  });

  it('reaches a NodePort Service from outside the cluster on every node, but not its ClusterIP', async () => {
    tc = await bootWeb();
    const svc = tc.client.services.get('web', { namespace: 'default' }) as Service;
    const updated = tc.client.services.update({ ...svc, spec: { ...svc.spec, type: 'NodePort' } }) as Service;
    tc.advance(1000);
    const nodePort = updated.spec!.ports![0].nodePort!;
    expect(nodePort).toBeGreaterThanOrEqual(30000);
    for (const node of tc.client.nodes.list().items) {
      const ip = node.status!.addresses!.find((a) => a.type === 'InternalIP')!.address;
      const res = tc.cluster.network.request({ from: { outside: true }, url: `http://${ip}:${nodePort}/` });
      expect(res.status).toBe(200);
      expect(res.hops.map((h) => h.kind)).toEqual(['nodeport', 'service', 'pod']);
    }
    const inside = tc.cluster.network.request({ from: { outside: true }, url: `http://${updated.spec!.clusterIP}/` });
    expect(inside.ok).toBe(false);
    expect(inside.error).toMatch(/^curl: \(28\) /);
    expect(tc.cluster.network.request({ from: { outside: true }, url: 'http://web' }).error).toBe('curl: (6) Could not resolve host: web');
  });

  it("forwards a LoadBalancer's external IP to the Service port", async () => {
    tc = await bootWeb();
    const svc = tc.client.services.get('web', { namespace: 'default' }) as Service;
    tc.client.services.update({ ...svc, spec: { ...svc.spec, type: 'LoadBalancer' } });
    tc.advance(2000);
    let lb = tc.client.services.get('web', { namespace: 'default' }) as Service;
    // The simulated cloud (the service controller) gives it an address; without one in this tree, set it as it would.
    if (!lb.status?.loadBalancer?.ingress?.[0]?.ip) {
      lb = tc.client.services.updateStatus({ ...lb, status: { loadBalancer: { ingress: [{ ip: '172.18.255.200', ipMode: 'VIP' }] } } }) as Service;
      tc.advance(1000);
    }
    const ip = lb.status!.loadBalancer!.ingress![0].ip!;
    const res = tc.cluster.network.request({ from: { outside: true }, url: `http://${ip}/` });
    expect(res.status).toBe(200);
    expect(res.hops.map((h) => h.kind)).toEqual(['loadbalancer', 'service', 'pod']);
    expect(tc.cluster.network.request({ from: { outside: true }, url: `http://${ip}:8080/` }).ok).toBe(false);
  });

  it('answers per image: an echo server its text, a pod not listening on the port refuses', async () => {
    tc = await bootCluster();
    tc.apply(`
apiVersion: v1
kind: Pod
metadata: {name: echo, labels: {app: echo}}
spec:
  containers: [{name: echo, image: hashicorp/http-echo:1.0, args: ['-text=hello from echo']}]
---
apiVersion: v1
kind: Pod
metadata: {name: hello, labels: {app: hello}}
spec:
  containers: [{name: hello, image: gcr.io/google-samples/hello-app:2.0}]
---
apiVersion: v1
kind: Service
metadata: {name: echo}
spec:
  selector: {app: echo}
  ports: [{port: 80, targetPort: 5678}]
`);
    tc.apply(web.split('---')[2]);
    tc.runUntil(() => podsOf(tc!, 'default', '').filter(isPodReady).length === 3, 60_000, 'pods ready');
    tc.advance(1000);
    expect(tc.cluster.network.request({ from: fromClient, url: 'http://echo' }).body).toBe('hello from echo\n');
    const helloIP = tc.client.pods.get('hello', { namespace: 'default' }).status!.podIP!;
    expect(tc.cluster.network.request({ from: fromClient, url: `http://${helloIP}:8080` }).body).toBe('Hello, world!\nVersion: 2.0.0\nHostname: hello\n');
    const refused = tc.cluster.network.request({ from: fromClient, url: `http://${helloIP}:9090` });
    expect(refused.error).toBe(`curl: (7) Failed to connect to ${helloIP} port 9090 after 1 ms: Couldn't connect to server`);
  });
});
