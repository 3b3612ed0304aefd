// kubectl exec running the network tools inside real images: curl in the curl image, busybox's wget and
// nslookup, and the images that do not ship a tool.
import type { Service } from 'kubernetes-types/core/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl } from '../../kubectl/cli/testing';
import { bootCluster, isPodReady, podsOf } from '../scenarios/harness';
import type { TestCluster } from '../testing/test-cluster';

let tc: TestCluster;
let clusterIP: string;

beforeAll(async () => {
  tc = await bootCluster();
  tc.apply(`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: 'nginx:1.27', ports: [{containerPort: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: v1
kind: Pod
metadata: {name: curl}
spec:
  containers: [{name: curl, image: 'curlimages/curl:8.14.1', command: [sleep, infinity]}]
---
apiVersion: v1
kind: Pod
metadata: {name: box}
spec:
  containers: [{name: box, image: 'busybox:1.36', command: [sleep, '3600']}]
---
apiVersion: v1
kind: Pod
metadata: {name: oldbox}
spec:
  containers: [{name: box, image: 'busybox:1.28', command: [sleep, '3600']}]
`);
  tc.runUntil(() => podsOf(tc, 'default', '').filter(isPodReady).length === 4, 120_000, 'pods ready');
  tc.advance(1000);
  clusterIP = (tc.client.services.get('web', { namespace: 'default' }) as Service).spec!.clusterIP!;
}, 60_000);

afterAll(() => tc.close());

describe('kubectl exec over the simulated network', () => {
  it('curl -s gets the welcome page through the Service', async () => {
    const r = await kubectl(tc.cluster, 'kubectl exec curl -- curl -s http://web');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('<h1>Welcome to nginx!</h1>');
    expect(r.stdout.startsWith('<!DOCTYPE html>')).toBe(true);
  });

  it('curl -I prints the status line and the nginx headers', async () => {
    const r = await kubectl(tc.cluster, 'kubectl exec curl -- curl -sI web.default.svc.cluster.local');
    expect(r.stdout.split('\n').slice(0, 2)).toEqual(['HTTP/1.1 200 OK', 'Server: nginx/1.27.5']);
  });

  it('curl to a name that does not exist fails with exit code 6', async () => {
    const r = await kubectl(tc.cluster, 'kubectl exec curl -- curl http://nosuch');
    expect(r.exitCode).toBe(6);
    expect(r.stdout + r.stderr).toContain('curl: (6) Could not resolve host: nosuch');
  });

  it("busybox's wget -qO- prints the page; busybox has no curl", async () => {
    const r = await kubectl(tc.cluster, 'kubectl exec box -- wget -qO- http://web');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('<title>Welcome to nginx!</title>');
    const noCurl = await kubectl(tc.cluster, 'kubectl exec box -- curl http://web');
    expect(noCurl.exitCode).toBe(126);
    expect(noCurl.stderr).toContain('exec: "curl": executable file not found in $PATH: unknown');
    const inShell = await kubectl(tc.cluster, "kubectl exec box -- sh -c 'curl -s web || echo status=$?'");
    expect(inShell.stdout).toContain('sh: curl: not found');
    expect(inShell.stdout).toContain('status=127');
    const bad = await kubectl(tc.cluster, 'kubectl exec box -- wget -qO- http://nosuch');
    expect(bad.exitCode).toBe(1);
    expect(bad.stdout + bad.stderr).toContain("wget: bad address 'nosuch'");
  });

  it('nslookup answers in busybox 1.36 and in the 1.28 format the DNS docs show', async () => {
    const r = await kubectl(tc.cluster, 'kubectl exec box -- nslookup web');
    expect(r.stdout).toBe(`Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: ${clusterIP}\n\n`);
    const old = await kubectl(tc.cluster, 'kubectl exec oldbox -- nslookup web');
    expect(old.stdout).toBe(
      `Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\nName:      web\nAddress 1: ${clusterIP} web.default.svc.cluster.local\n`,
    );
    const missing = await kubectl(tc.cluster, 'kubectl exec oldbox -- nslookup nosuch');
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout).toContain("nslookup: can't resolve 'nosuch'");
  });

  it('a refused connection once the Deployment has no pods', async () => {
    await kubectl(tc.cluster, 'kubectl scale deployment web --replicas=0');
    tc.runUntil(() => podsOf(tc, 'default', 'app=web').length === 0, 120_000, 'web pods gone');
    tc.advance(1000);
    const r = await kubectl(tc.cluster, 'kubectl exec box -- wget -qO- http://web');
    expect(r.exitCode).toBe(1);
    expect(r.stdout + r.stderr).toContain(`wget: can't connect to remote host (${clusterIP}): Connection refused`);
  });
});
