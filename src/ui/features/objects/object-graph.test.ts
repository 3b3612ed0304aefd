import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import type { GraphInput } from './object-graph';
import { buildObjectGraph, podGroupThreshold } from './object-graph';
import { layoutObjectGraph } from './graph-layout';

const resourceOf: Record<string, string> = {
  Deployment: 'apps/deployments',
  ReplicaSet: 'apps/replicasets',
  Pod: '/pods',
  Service: '/services',
  ConfigMap: '/configmaps',
  Secret: '/secrets',
  Node: '/nodes',
  PersistentVolumeClaim: '/persistentvolumeclaims',
  Namespace: '/namespaces',
};

function input(kind: string, name: string, extra: Partial<KubeObject> & Record<string, unknown> = {}, namespace: string | undefined = 'default'): GraphInput {
  const cluster = kind === 'Node' || kind === 'Namespace';
  const obj = {
    apiVersion: 'v1',
    kind,
    ...extra,
    metadata: { name, uid: `uid-${kind}-${name}`, ...(cluster ? {} : { namespace }), ...(extra.metadata ?? {}) },
  } as KubeObject;
  return { id: `${resourceOf[kind]}|${cluster ? name : `${namespace}/${name}`}`, obj };
}

const owned = (kind: string, name: string) => ({ ownerReferences: [{ apiVersion: 'apps/v1', kind, name, uid: `uid-${kind}-${name}`, controller: true }] });

describe('buildObjectGraph', () => {
  const deployment = input('Deployment', 'web');
  const rs = input('ReplicaSet', 'web-abc', { metadata: { name: 'web-abc', ...owned('Deployment', 'web') } });
  const pod = input('Pod', 'web-abc-1', {
    metadata: { name: 'web-abc-1', labels: { app: 'web' }, ...owned('ReplicaSet', 'web-abc') },
    spec: {
      nodeName: 'node-1',
      containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'cfg' } }, { secretRef: { name: 'creds' } }] }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
    },
  });
  const other = input('Pod', 'lonely', { metadata: { name: 'lonely', labels: { app: 'other' } } });
  const svc = input('Service', 'web', { spec: { selector: { app: 'web' } } });
  const node = input('Node', 'node-1');
  const cfg = input('ConfigMap', 'cfg');
  const secret = input('Secret', 'creds');
  const pvc = input('PersistentVolumeClaim', 'data');
  const ns = input('Namespace', 'default');
  const elsewhere = input('ConfigMap', 'cfg', {}, 'kube-system');
  const all = [deployment, rs, pod, other, svc, node, cfg, secret, pvc, ns, elsewhere];

  it('shows the workload kinds of the namespace and the Nodes, not Namespaces or other namespaces', () => {
    const g = buildObjectGraph(all, 'default');
    expect(g.nodes.map((n) => n.id).sort()).toEqual(
      [deployment, rs, pod, other, svc, node, cfg, secret, pvc].map((i) => i.id).sort(),
    );
    expect(g.nodes.find((n) => n.id === rs.id)).toMatchObject({ type: 'object', kind: 'ReplicaSet', name: 'web-abc' });
  });

  it('links owners to dependents, a Service to the pods it selects, a Pod to its Node and what it mounts or imports', () => {
    const g = buildObjectGraph(all, 'default');
    const pairs = g.edges.map((e) => `${e.source} -> ${e.target}`).sort();
    expect(pairs).toEqual(
      [
        `${deployment.id} -> ${rs.id}`,
        `${rs.id} -> ${pod.id}`,
        `${svc.id} -> ${pod.id}`,
        `${pod.id} -> ${node.id}`,
        `${pod.id} -> ${cfg.id}`,
        `${pod.id} -> ${secret.id}`,
        `${pod.id} -> ${pvc.id}`,
      ].sort(),
    );
  });

  it('keeps the signature across status-only changes and changes it when an object comes or goes', () => {
    const a = buildObjectGraph(all, 'default');
    const running = { ...pod, obj: { ...pod.obj, status: { phase: 'Running' } } as KubeObject };
    expect(buildObjectGraph(all.map((i) => (i === pod ? running : i)), 'default').signature).toBe(a.signature);
    expect(buildObjectGraph(all.filter((i) => i !== other), 'default').signature).not.toBe(a.signature);
  });

  it(`groups the pods of a ReplicaSet with more than ${podGroupThreshold} into one "N pods" node with merged edges`, () => {
    const pods = Array.from({ length: podGroupThreshold + 1 }, (_, i) =>
      input('Pod', `web-abc-${i}`, { metadata: { name: `web-abc-${i}`, labels: { app: 'web' }, ...owned('ReplicaSet', 'web-abc') }, spec: { nodeName: 'node-1' } }),
    );
    const g = buildObjectGraph([deployment, rs, svc, node, ...pods], 'default');
    const group = g.nodes.find((n) => n.type === 'pods');
    expect(group).toEqual({ id: `pods:${rs.id}`, type: 'pods', kind: 'Pod', name: `${podGroupThreshold + 1} pods`, count: podGroupThreshold + 1 });
    expect(g.nodes.filter((n) => n.kind === 'Pod')).toHaveLength(1);
    expect(g.edges.map((e) => `${e.source} -> ${e.target}`).sort()).toEqual(
      [`${deployment.id} -> ${rs.id}`, `${rs.id} -> ${group!.id}`, `${svc.id} -> ${group!.id}`, `${group!.id} -> ${node.id}`].sort(),
    );
  });

  it(`does not group a ReplicaSet with exactly ${podGroupThreshold} pods`, () => {
    const pods = Array.from({ length: podGroupThreshold }, (_, i) =>
      input('Pod', `web-abc-${i}`, { metadata: { name: `web-abc-${i}`, ...owned('ReplicaSet', 'web-abc') } }),
    );
    const g = buildObjectGraph([rs, ...pods], 'default');
    expect(g.nodes.filter((n) => n.type === 'pods')).toHaveLength(0);
    expect(g.nodes.filter((n) => n.kind === 'Pod')).toHaveLength(podGroupThreshold);
  });
});

describe('layoutObjectGraph', () => {
  it('places owners left of their dependents', () => {
    const nodes = ['a', 'b', 'c'].map((id) => ({ id, type: 'object' as const, kind: 'Pod', name: id }));
    const positions = layoutObjectGraph({ nodes, edges: [{ id: 'a->b', source: 'a', target: 'b' }, { id: 'b->c', source: 'b', target: 'c' }] });
    expect(positions.get('a')!.x).toBeLessThan(positions.get('b')!.x);
    expect(positions.get('b')!.x).toBeLessThan(positions.get('c')!.x);
  });
});
