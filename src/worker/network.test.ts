// net/request through the page's protocol client, over a real headless cluster: plain JSON in and out.
import { afterEach, describe, expect, it } from 'vitest';
import { ProtocolError } from '../shared/protocol/client';
import { TraceKind } from '../shared/protocol/trace';
import { objectsOf } from '../control-plane/scenarios/harness';
import { createHeadlessCluster, type HeadlessCluster } from './headless';

const open: HeadlessCluster[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

describe('net/request', () => {
  it('sends a request from a pod to a Service and answers the nginx page with its hops and trace event', async () => {
    const h = await createHeadlessCluster({ seed: 1, settle: 'manual' });
    open.push(h);
    const { cluster, client } = h;
    expect(cluster.runUntil(() => cluster.client.serviceAccounts.list({ namespace: 'default' }).items.length > 0, 60_000)).toBe(true);
    for (const obj of objectsOf(`
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  containers: [{name: nginx, image: 'nginx:1.27'}]
---
apiVersion: v1
kind: Pod
metadata: {name: client, namespace: default}
spec:
  containers: [{name: c, image: 'curlimages/curl:8.14.1', command: [sleep, infinity]}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
spec:
  selector: {app: web}
  ports: [{port: 80}]
`)) {
      cluster.client.resource({ group: '', version: 'v1', resource: obj.kind === 'Pod' ? 'pods' : 'services' }).create(obj, { namespace: 'default' });
    }
    const ready = () =>
      cluster.client.pods.list({ namespace: 'default' }).items.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length === 2;
    expect(cluster.runUntil(ready, 120_000)).toBe(true);
    cluster.advance(1000);
    const res = await client.call('net/request', { from: { pod: { namespace: 'default', name: 'client' } }, url: 'http://web/' });
    expect(res.ok).toBe(true);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<h1>Welcome to nginx!</h1>');
    expect(res.hops.map((x) => x.kind)).toEqual(['dns', 'service', 'pod']);
    expect(res.hops[2].object).toEqual({ kind: 'Pod', namespace: 'default', name: 'web' });
    const ev = cluster.trace.get(res.traceSeq!);
    expect(ev?.kind).toBe(TraceKind.NetRequest);
    expect(ev?.data).toMatchObject({ url: 'http://web/', ok: true, status: 200 });
  });

  it('refuses a request without a url with 400 BadRequest', async () => {
    const h = await createHeadlessCluster({ nodes: 0 });
    open.push(h);
    const err = await h.client.call('net/request', { from: { outside: true } } as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProtocolError);
    expect((err as ProtocolError).code).toBe(400);
    expect((err as ProtocolError).message).toBe('invalid request: url: Required value');
  });
});
