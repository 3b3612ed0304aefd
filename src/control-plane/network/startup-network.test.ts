// A container's own start-up program on the simulated network: the docs' init-container example (concepts/
// workloads/pods/init-containers) waits in Init:0/2 until its Services exist, then proceeds — on virtual time.
import type { Pod, Service } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import { kubectl } from '../../kubectl/cli/testing';
import { bootCluster } from '../scenarios/harness';
import type { TestCluster } from '../testing/test-cluster';

const myappPod = `
apiVersion: v1
kind: Pod
metadata:
  name: myapp-pod
  labels:
    app.kubernetes.io/name: MyApp
spec:
  containers:
  - name: myapp-container
    image: busybox:1.28
    command: ['sh', '-c', 'echo The app is running! && sleep 3600']
  initContainers:
  - name: init-myservice
    image: busybox:1.28
    command: ['sh', '-c', "until nslookup myservice.$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace).svc.cluster.local; do echo waiting for myservice; sleep 2; done"]
  - name: init-mydb
    image: busybox:1.28
    command: ['sh', '-c', "until nslookup mydb.$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace).svc.cluster.local; do echo waiting for mydb; sleep 2; done"]
`;

const service = (name: string, targetPort: number) => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
spec:
  ports:
  - protocol: TCP
    port: 80
    targetPort: ${targetPort}
`;

let tc: TestCluster | undefined;
afterEach(() => tc?.close());

async function status(cluster: TestCluster): Promise<string> {
  const { stdout } = await kubectl(cluster.cluster, 'kubectl get pod myapp-pod --no-headers');
  return stdout.trim().split(/\s+/)[2];
}

async function logs(cluster: TestCluster, container: string): Promise<string[]> {
  const { stdout } = await kubectl(cluster.cluster, `kubectl logs myapp-pod -c ${container}`);
  return stdout.split('\n');
}

function pod(cluster: TestCluster): Pod {
  return cluster.client.pods.get('myapp-pod', { namespace: 'default' }) as Pod;
}

describe("a start-up script's network", () => {
  it('keeps the docs init-container example in Init:0/2 until its Services exist, then runs the app', async () => {
    tc = await bootCluster();
    tc.apply(myappPod);
    tc.runUntil(() => pod(tc!).status?.initContainerStatuses?.[0]?.state?.running !== undefined, 60_000, 'init-myservice running');
    const started = tc.clock.now();
    // Waiting is idle work: settle() returns while the loop keeps polling in the background.
    tc.settle();
    tc.advance(30_000);
    expect(await status(tc)).toBe('Init:0/2');
    const waiting = (await logs(tc, 'init-myservice')).filter((l) => l === 'waiting for myservice');
    // One line every 2 s (nslookup's own 2 ms aside), from the start.
    const elapsed = tc.clock.now() - started;
    expect(waiting.length).toBeGreaterThanOrEqual(Math.floor(elapsed / 2002) - 1);
    expect(waiting.length).toBeLessThanOrEqual(Math.floor(elapsed / 2002) + 2);
    expect(await logs(tc, 'init-myservice')).toContain("nslookup: can't resolve 'myservice.default.svc.cluster.local'");

    // kubectl create -f services.yaml (myservice first): the first init container finishes within one iteration.
    tc.apply(service('myservice', 9376));
    const ip = (tc.client.services.get('myservice', { namespace: 'default' }) as Service).spec!.clusterIP!;
    const created = tc.clock.now();
    tc.runUntil(() => pod(tc!).status?.initContainerStatuses?.[0]?.state?.terminated !== undefined, 10_000, 'init-myservice done');
    expect(tc.clock.now() - created).toBeLessThanOrEqual(2100);
    expect(pod(tc).status?.initContainerStatuses?.[0]?.state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    const lines = await logs(tc, 'init-myservice');
    expect(lines).toContain('Name:      myservice.default.svc.cluster.local');
    expect(lines).toContain(`Address 1: ${ip} myservice.default.svc.cluster.local`);
    expect(lines.filter((l) => l === 'waiting for myservice').length).toBeGreaterThanOrEqual(waiting.length);

    // The second waits for mydb in turn.
    tc.advance(20_000);
    expect(await status(tc)).toBe('Init:1/2');
    expect((await logs(tc, 'init-mydb')).filter((l) => l === 'waiting for mydb').length).toBeGreaterThanOrEqual(9);

    tc.apply(service('mydb', 9377));
    tc.runUntil(() => pod(tc!).status?.phase === 'Running', 10_000, 'myapp-pod running');
    expect(await status(tc)).toBe('Running');
    expect(await logs(tc, 'myapp-container')).toContain('The app is running!');
  }, 60_000);

  it('proceeds at once when the Services already exist, and is deterministic', async () => {
    const run = async () => {
      const c = await bootCluster({ seed: 7 });
      c.apply(service('myservice', 9376) + '---' + service('mydb', 9377));
      c.settle();
      c.apply(myappPod);
      c.runUntil(() => (c.client.pods.get('myapp-pod', { namespace: 'default' }) as Pod).status?.phase === 'Running', 60_000, 'running');
      const out = [...(await logs(c, 'init-myservice')), ...(await logs(c, 'init-mydb'))];
      const at = c.clock.now();
      c.close();
      return { out, at };
    };
    const a = await run();
    expect(a.out.some((l) => l.startsWith('waiting for'))).toBe(false);
    expect(a.out).toContain('Name:      mydb.default.svc.cluster.local');
    expect(await run()).toEqual(a);
  }, 60_000);

  it("still fetches from the internet stand-in (the docs' init-demo wget http://info.cern.ch), while cluster names fail", async () => {
    tc = await bootCluster();
    tc.apply(`
apiVersion: v1
kind: Pod
metadata: {name: fetch}
spec:
  restartPolicy: Never
  containers:
  - name: c
    image: busybox:1.36
    command: ['sh', '-c', 'wget -O /tmp/index.html http://info.cern.ch && echo fetched; wget -qO- http://nosuch || echo failed $?']
`);
    tc.runUntil(() => ['Succeeded', 'Failed'].includes(pod2(tc!).status?.phase ?? ''), 60_000, 'fetch done');
    const { stdout } = await kubectl(tc.cluster, 'kubectl logs fetch');
    expect(stdout).toContain('fetched');
    expect(stdout).toContain("wget: bad address 'nosuch'");
    expect(stdout).toContain('failed 1');
  }, 60_000);
});

function pod2(cluster: TestCluster): Pod {
  return cluster.client.pods.get('fetch', { namespace: 'default' }) as Pod;
}
