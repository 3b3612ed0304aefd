// The network images of the docs: hashicorp/http-echo serves its -text on 5678, curlimages/curl runs curl and
// exits, nicolaka/netshoot has curl, nslookup and dig — with no containerPort declared anywhere.
import type { Pod } from 'kubernetes-types/core/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectl } from '../../kubectl/cli/testing';
import { bootCluster } from '../scenarios/harness';
import type { TestCluster } from '../testing/test-cluster';

let tc: TestCluster;
const phase = (name: string) => (tc.client.pods.get(name, { namespace: 'default' }) as Pod).status?.phase;

beforeAll(async () => {
  tc = await bootCluster();
  tc.apply(`
apiVersion: v1
kind: Pod
metadata: {name: echo, labels: {app: echo}}
spec:
  containers: [{name: echo, image: 'hashicorp/http-echo:1.0', args: ['-text=apple']}]
---
apiVersion: v1
kind: Service
metadata: {name: apple-service}
spec:
  selector: {app: echo}
  ports: [{port: 5678}]
---
apiVersion: v1
kind: Pod
metadata: {name: shoot}
spec:
  containers: [{name: shoot, image: nicolaka/netshoot, command: [sleep, infinity]}]
`);
  tc.runUntil(() => phase('echo') === 'Running' && phase('shoot') === 'Running', 120_000, 'pods running');
  tc.advance(2000);
}, 60_000);

afterAll(() => tc.close());

describe('network images', () => {
  it('http-echo listens on 5678 with its real start-up line and serves -text', async () => {
    expect((await kubectl(tc.cluster, 'kubectl logs echo')).stdout).toMatch(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d \[INFO\] server is listening on :5678\n$/);
    expect((await kubectl(tc.cluster, 'kubectl exec shoot -- curl -s http://apple-service:5678')).stdout).toBe('apple\n');
  });

  it('http-echo without -text exits 127 as the real binary does', async () => {
    tc.apply(`
apiVersion: v1
kind: Pod
metadata: {name: mute}
spec:
  restartPolicy: Never
  containers: [{name: echo, image: 'hashicorp/http-echo:1.0'}]
`);
    tc.runUntil(() => phase('mute') === 'Failed', 60_000, 'mute failed');
    const pod = tc.client.pods.get('mute', { namespace: 'default' }) as Pod;
    expect(pod.status?.containerStatuses?.[0].state?.terminated).toMatchObject({ exitCode: 127, reason: 'Error' });
    expect((await kubectl(tc.cluster, 'kubectl logs mute')).stdout).toBe('Missing -text option!\n');
  });

  it('curlimages/curl runs curl with its args and exits (no server); with none, curl usage and exit 2', async () => {
    tc.apply(`
apiVersion: v1
kind: Pod
metadata: {name: once}
spec:
  restartPolicy: Never
  containers: [{name: curl, image: 'curlimages/curl:8.14.1', args: ['-s', 'http://apple-service:5678']}]
---
apiVersion: v1
kind: Pod
metadata: {name: bare}
spec:
  restartPolicy: Never
  containers: [{name: curl, image: 'curlimages/curl'}]
`);
    tc.runUntil(() => phase('once') === 'Succeeded' && phase('bare') === 'Failed', 60_000, 'curl pods done');
    expect((await kubectl(tc.cluster, 'kubectl logs once')).stdout).toBe('apple\n');
    expect((await kubectl(tc.cluster, 'kubectl logs bare')).stdout).toBe("curl: try 'curl --help' or 'curl --manual' for more information\n");
    expect((tc.client.pods.get('bare', { namespace: 'default' }) as Pod).status?.containerStatuses?.[0].state?.terminated?.exitCode).toBe(2);
  });

  it('netshoot has nslookup and dig (absolute names unless +search)', async () => {
    const dig = async (args: string) => (await kubectl(tc.cluster, `kubectl exec shoot -- sh -c "dig ${args}"`)).stdout;
    const ip = tc.client.services.get('apple-service', { namespace: 'default' }).spec!.clusterIP!;
    expect((await kubectl(tc.cluster, 'kubectl exec shoot -- nslookup apple-service')).stdout).toContain(`Address: ${ip}`);
    expect((await dig('+short apple-service.default.svc.cluster.local'))).toBe(`${ip}\n`);
    expect((await dig('+short apple-service'))).toBe('');
    expect((await dig('+short +search apple-service'))).toBe(`${ip}\n`);
    const full = await dig('apple-service.default.svc.cluster.local');
    expect(full).toContain('status: NOERROR');
    expect(full).toContain(`apple-service.default.svc.cluster.local.\t30\tIN\tA\t${ip}`);
    expect(await dig('nosuch.default.svc.cluster.local')).toContain('status: NXDOMAIN');
    // and curl.
    expect((await kubectl(tc.cluster, 'kubectl exec shoot -- sh -c "curl -s http://apple-service:5678"')).stdout).toBe('apple\n');
  });
});
