// Export and import of the whole cluster: the exported List holds the user's objects (not Events, not what
// controllers or the cluster itself make), and importing it into a fresh cluster through api/apply re-creates them.
import { describe, expect, it } from 'vitest';
import type { KubeList, KubeObject } from '../shared/api/types';
import { parseAllDocuments } from 'yaml';
import { createHeadlessCluster } from './headless';

const manifest = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
  labels:
    app: web
data:
  mode: "0644"
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec:
  selector:
    app: web
  ports:
  - port: 80
`;

function userView(o: KubeObject): unknown {
  const { metadata, status: _s, ...rest } = o as KubeObject & { status?: unknown };
  return { ...rest, name: metadata.name, namespace: metadata.namespace, labels: metadata.labels };
}

async function listOf(h: Awaited<ReturnType<typeof createHeadlessCluster>>, group: string, version: string, resource: string): Promise<KubeObject[]> {
  return ((await h.client.call('api/request', { verb: 'list', group, version, resource, namespace: 'shop' })).body as KubeList).items;
}

describe('cluster/export', () => {
  it('exports the user objects as one List that a fresh cluster imports through the API server', async () => {
    const first = await createHeadlessCluster({ seed: 3 });
    const second = await createHeadlessCluster({ seed: 4 });
    try {
      const applied = await first.client.call('api/apply', { manifest });
      expect(applied.outcomes.every((o) => o.ok)).toBe(true);
      first.cluster.runUntil(() => first.cluster.store.count('/registry/core/pods/shop/') === 2, 60_000);

      const exported = await first.client.call('cluster/export');
      const docs = parseAllDocuments(exported.yaml);
      expect(docs).toHaveLength(1);
      const list = docs[0].toJS() as KubeList;
      expect(list.kind).toBe('List');
      expect(exported.count).toBe(list.items.length);
      const names = list.items.map((o) => `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`);
      expect(names).toEqual(expect.arrayContaining(['Namespace/shop', 'ConfigMap/shop/settings', 'Deployment/shop/web', 'Service/shop/web']));
      // What the cluster makes by itself is left out: it would be made again (or is the cluster's own).
      for (const kind of ['Pod', 'ReplicaSet', 'Event', 'Node', 'Lease', 'EndpointSlice', 'Endpoints']) expect(names.filter((n) => n.startsWith(`${kind}/`))).toEqual([]);
      expect(names).not.toContain('Namespace/default');
      expect(names).not.toContain('Service/default/kubernetes');
      expect(names.some((n) => n.includes('system:'))).toBe(false);
      // Server-set fields are stripped, as a client sends an object on create.
      for (const o of list.items) {
        expect(o.metadata.uid).toBeUndefined();
        expect(o.metadata.resourceVersion).toBeUndefined();
        expect(o.metadata.creationTimestamp).toBeUndefined();
        expect((o as { status?: unknown }).status).toBeUndefined();
      }
      // Namespaces come first so the objects in them apply.
      expect(list.items[0].kind).toBe('Namespace');

      const imported = await second.client.call('api/apply', { manifest: exported.yaml });
      expect(imported.outcomes.filter((o) => !o.ok)).toEqual([]);
      for (const [group, version, resource] of [['', 'v1', 'configmaps'], ['apps', 'v1', 'deployments'], ['', 'v1', 'services']] as const) {
        const before = (await listOf(first, group, version, resource)).filter((o) => !o.metadata.name?.startsWith('kube-root-ca'));
        const after = (await listOf(second, group, version, resource)).filter((o) => !o.metadata.name?.startsWith('kube-root-ca'));
        expect(after.map(userView)).toEqual(before.map(userView));
        // New objects of the second cluster, not copies of the first's.
        for (const o of after) expect(before.map((b) => b.metadata.uid)).not.toContain(o.metadata.uid);
      }
      // The imported Deployment is reconciled by the second cluster's own controllers.
      expect(second.cluster.runUntil(() => second.cluster.store.count('/registry/core/pods/shop/') === 2, 60_000)).toBe(true);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("a fresh cluster exports an empty List: everything in it is the cluster's own", async () => {
    const h = await createHeadlessCluster({ seed: 6 });
    try {
      h.cluster.advance(30_000);
      const exported = await h.client.call('cluster/export');
      expect(exported.count).toBe(0);
      expect((parseAllDocuments(exported.yaml)[0].toJS() as KubeList).items).toEqual([]);
    } finally {
      await h.close();
    }
  });

  it('an import is validated by the API server: an invalid object in the file is refused, the rest applied', async () => {
    const h = await createHeadlessCluster({ seed: 5, scheduler: false, nodes: 0, controllers: false });
    try {
      const file = `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: good\n    namespace: default\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: Bad_Name\n    namespace: default\n`;
      const result = await h.client.call('api/apply', { manifest: file });
      expect(result.outcomes.map((o) => o.ok)).toEqual([true, false]);
      const refused = result.outcomes[1];
      expect(refused.ok === false && refused.status.message).toContain('ConfigMap "Bad_Name" is invalid');
    } finally {
      await h.close();
    }
  });
});
