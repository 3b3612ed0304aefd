import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../../shared/protocol/trace';
import { actorName, isKeyStep, whyLines } from './why-lines';
import type { Fixture } from './headless.fixture';
import { keysNamed, nginxFixture } from './headless.fixture';

let f: Fixture;
beforeAll(async () => {
  f = await nginxFixture();
});
afterAll(async () => {
  await f.h.close();
});

function find(pred: (e: TraceEvent) => boolean, what: string): TraceEvent {
  const e = f.trace.find(pred);
  if (!e) throw new Error(`no trace event: ${what}`);
  return e;
}

const isCreate = (resource: string) => (e: TraceEvent) => e.kind === 'api.request' && e.data.verb === 'create' && e.data.resource === resource;

describe('the why chain as sentences', () => {
  it('names who created what, filling in generated names and the controller behind the controller manager', () => {
    // The links of the nginx story as the cluster traced them: the user's create and its commit, the deployment
    // controller's reconcile, its create of the ReplicaSet and that commit.
    const userCreate = find((e) => isCreate('deployments')(e) && e.data.user === 'kubernetes-admin', 'user create');
    const userCommit = find((e) => e.kind === 'store.commit' && e.cause === userCreate.seq, 'user commit');
    const reconcile = find((e) => e.kind === 'reconcile.start' && e.data.controller === 'deployment-controller' && e.data.key === 'default/nginx', 'reconcile');
    const rsCreate = find((e) => isCreate('replicasets')(e) && e.seq > reconcile.seq, 'rs create');
    const rsCommit = find((e) => e.kind === 'store.commit' && e.cause === rsCreate.seq, 'rs commit');
    const [rsKey] = keysNamed(f.store, 'apps/replicasets', 'nginx-');
    const rsName = rsKey.slice('default/'.length);

    const lines = whyLines([userCreate, userCommit, reconcile, rsCreate, rsCommit]);
    expect(lines.map((l) => l.text)).toEqual([
      'kubernetes-admin created deployments/nginx in default',
      `etcd committed revision ${String(userCommit.data.revision)} (/registry/apps/deployments/default/nginx)`,
      'deployment-controller reconciled default/nginx',
      `deployment-controller created replicasets/${rsName} in default`,
      `etcd committed revision ${String(rsCommit.data.revision)} (/registry/apps/replicasets/${rsKey})`,
    ]);
    expect(lines.map((l) => l.actor)).toEqual(['kubernetes-admin', 'etcd', 'deployment-controller', 'deployment-controller', 'etcd']);
    expect(lines[0].time).toBe(userCreate.time);
  });

  it('reads the replica set controller creating a pod with a generated name', () => {
    const reconcile = find((e) => e.kind === 'reconcile.start' && e.data.controller === 'replicaset-controller', 'rs reconcile');
    const podCreate = find((e) => isCreate('pods')(e) && e.seq > reconcile.seq && f.trace.some((c) => c.kind === 'store.commit' && c.cause === e.seq), 'pod create');
    const podCommit = find((e) => e.kind === 'store.commit' && e.cause === podCreate.seq, 'pod commit');
    const [line] = whyLines([reconcile, podCreate, podCommit]).slice(1);
    expect(line.text).toMatch(/^replicaset-controller created pods\/nginx-[a-z0-9]+-[a-z0-9]+ in default$/);
  });

  it('reads trace/why’s chain for a pod as the story from the user’s apply to the pod’s creation', async () => {
    const [podKey] = keysNamed(f.store, '/pods', 'nginx-');
    const pod = f.get('/pods', podKey);
    const why = await f.h.client.call('trace/why', { group: '', resource: 'pods', namespace: 'default', name: pod.metadata.name!, uid: pod.metadata.uid });
    expect(why.complete).toBe(true);
    const key = whyLines(why.chain, pod.metadata.name).filter((_, i) => isKeyStep(why.chain[i], i, why.chain)).map((l) => l.text);
    const [rsKey] = keysNamed(f.store, 'apps/replicasets', 'nginx-');
    expect(key[0]).toBe('kubernetes-admin created deployments/nginx in default');
    expect(key).toContain('deployment-controller reconciled default/nginx');
    expect(key).toContain(`deployment-controller created replicasets/${rsKey.slice('default/'.length)} in default`);
    expect(key).toContain(`replicaset-controller reconciled ${rsKey}`);
    expect(key.at(-1)).toBe(`replicaset-controller created pods/${pod.metadata.name} in default`);
    // Every step is a superset of the key steps, in the same order.
    expect(whyLines(why.chain).length).toBeGreaterThan(key.length);
  });

  it('names components by their identity', () => {
    expect(actorName('system:kube-scheduler')).toBe('kube-scheduler');
    expect(actorName('system:node:node-2')).toBe('kubelet on node-2');
    expect(actorName('system:serviceaccount:kube-system:job-controller')).toBe('job-controller');
    expect(actorName('jane')).toBe('jane');
    expect(actorName(undefined)).toBe('someone');
  });
});
