import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../control-plane/cluster';
import { lastAppliedConfigAnnotation } from '../kubectl/apply';
import type { KubeObject } from '../shared/api/types';
import type { ApplyOutcome } from '../shared/protocol/methods';
import { applyManifest } from './apply';

let cluster: Cluster;
afterEach(async () => {
  await cluster?.close();
});

const nginx = (opts: { replicas?: string; image?: string; labels?: string } = {}) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  labels:
${opts.labels ?? '    app: nginx\n    tier: web'}
spec:
  ${opts.replicas ?? 'replicas: 3'}
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: ${opts.image ?? 'nginx:1.14.2'}
        ports:
        - containerPort: 80
`;

async function start(): Promise<Cluster> {
  cluster = await createCluster({ seed: 5, controllers: [], scheduler: false });
  return cluster;
}

function apply(manifest: string): ApplyOutcome {
  const { outcomes } = applyManifest({ apiserver: cluster.apiserver, registry: cluster.registry, store: cluster.store }, { manifest });
  expect(outcomes).toHaveLength(1);
  return outcomes[0];
}

function live(): KubeObject {
  return cluster.client.resource({ group: 'apps', version: 'v1', resource: 'deployments' }).get('nginx', { namespace: 'default' });
}

describe('applyManifest (client-side kubectl apply)', () => {
  it('creates with the last-applied-configuration annotation, then reports unchanged without writing', async () => {
    await start();
    const created = apply(nginx());
    expect(created).toMatchObject({ ok: true, action: 'created' });
    const obj = live();
    const annotation = obj.metadata.annotations?.[lastAppliedConfigAnnotation] ?? '';
    // kubectl's form: the object as given (namespace defaulted), keys sorted, compact, newline-terminated.
    expect(annotation.endsWith('}\n')).toBe(true);
    // GetModifiedConfiguration always leaves an (empty) annotations map in it.
    expect(annotation.startsWith('{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"labels":{"app":"nginx","tier":"web"},"name":"nginx","namespace":"default"},"spec":{"replicas":3,')).toBe(true);
    expect(obj.metadata.managedFields?.map((f) => f.manager)).toContain('kubectl-client-side-apply');

    const rv = obj.metadata.resourceVersion;
    const revision = cluster.store.revision;
    const again = apply(nginx());
    expect(again).toMatchObject({ ok: true, action: 'unchanged' });
    expect(live().metadata.resourceVersion).toBe(rv);
    expect(cluster.store.revision).toBe(revision);
  });

  it('configures changed replicas and image through a strategic merge patch', async () => {
    await start();
    apply(nginx());
    const configured = apply(nginx({ replicas: 'replicas: 5', image: 'nginx:1.27' }));
    expect(configured).toMatchObject({ ok: true, action: 'configured' });
    const obj = live() as KubeObject & { spec: { replicas: number; template: { spec: { containers: { name: string; image: string; ports: unknown[] }[] } } } };
    expect(obj.spec.replicas).toBe(5);
    expect(obj.spec.template.spec.containers).toHaveLength(1);
    expect(obj.spec.template.spec.containers[0]).toMatchObject({ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }] });
    expect(JSON.parse(obj.metadata.annotations?.[lastAppliedConfigAnnotation] ?? '{}').spec.replicas).toBe(5);
  });

  it('removes a label dropped from the manifest but keeps one another client added', async () => {
    await start();
    apply(nginx());
    // kubectl label deployment nginx owner=ops
    cluster.client
      .resource({ group: 'apps', version: 'v1', resource: 'deployments' })
      .patch('nginx', 'application/merge-patch+json', { metadata: { labels: { owner: 'ops' } } }, { namespace: 'default' });
    expect(apply(nginx({ labels: '    app: nginx' }))).toMatchObject({ ok: true, action: 'configured' });
    expect(live().metadata.labels).toEqual({ app: 'nginx', owner: 'ops' });
  });

  it('deletes a container removed from the manifest and keeps the others', async () => {
    await start();
    const two = nginx().replace('        ports:\n        - containerPort: 80\n', '        ports:\n        - containerPort: 80\n      - name: sidecar\n        image: busybox\n');
    apply(two);
    expect(apply(nginx())).toMatchObject({ ok: true, action: 'configured' });
    const containers = (live() as KubeObject & { spec: { template: { spec: { containers: { name: string }[] } } } }).spec.template.spec.containers;
    expect(containers.map((c) => c.name)).toEqual(['nginx']);
  });

  it('refuses the replica typo with the strict decoding error and creates nothing', async () => {
    await start();
    const outcome = apply(nginx({ replicas: 'replica: 3' }));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.status.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"');
    expect(() => live()).toThrow(/not found/);
  });

  it('reports a duplicate key as a duplicate field', async () => {
    await start();
    const outcome = apply(nginx({ replicas: 'replicas: 3\n  replicas: 4' }));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.status.message).toContain('strict decoding error: duplicate field "spec.replicas"');
  });
});
