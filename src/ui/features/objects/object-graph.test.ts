import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import type { HeadlessCluster } from '../../../worker/headless';
import { createHeadlessCluster } from '../../../worker/headless';
import type { GraphInput, ObjectGraph } from './object-graph';
import { AllNamespaces, buildObjectGraph, EdgeKind, graphColumns, GraphNodeType, leafGroupId, leafGroupThreshold, objectTitle, parseLeafGroupId, podGroupId, podGroupThreshold } from './object-graph';

const resourceOf: Record<string, string> = {
  Deployment: 'apps/deployments',
  ReplicaSet: 'apps/replicasets',
  StatefulSet: 'apps/statefulsets',
  Job: 'batch/jobs',
  CronJob: 'batch/cronjobs',
  Pod: '/pods',
  Service: '/services',
  ConfigMap: '/configmaps',
  Secret: '/secrets',
  Node: '/nodes',
  PersistentVolumeClaim: '/persistentvolumeclaims',
  PersistentVolume: '/persistentvolumes',
  Namespace: '/namespaces',
};
const clusterKinds = new Set(['Node', 'Namespace', 'PersistentVolume']);

function input(kind: string, name: string, extra: Partial<KubeObject> & Record<string, unknown> = {}, namespace = 'default'): GraphInput {
  const cluster = clusterKinds.has(kind);
  const obj = {
    apiVersion: 'v1',
    kind,
    ...extra,
    metadata: { name, uid: `uid-${kind}-${cluster ? '' : namespace}-${name}`, ...(cluster ? {} : { namespace }), ...(extra.metadata ?? {}) },
  } as KubeObject;
  return { id: `${resourceOf[kind]}|${cluster ? name : `${namespace}/${name}`}`, obj };
}

const ownedBy = (owner: GraphInput) => ({
  ownerReferences: [{ apiVersion: owner.obj.apiVersion, kind: owner.obj.kind, name: owner.obj.metadata.name!, uid: owner.obj.metadata.uid!, controller: true }],
});

const pairs = (g: ObjectGraph) => g.edges.map((e) => `${e.source} -${e.kind}-> ${e.target}`).sort();

describe('buildObjectGraph', () => {
  const deployment = input('Deployment', 'web');
  const rs = input('ReplicaSet', 'web-abc', { metadata: { name: 'web-abc', ...ownedBy(deployment) } });
  const node = input('Node', 'node-1');
  const cfg = input('ConfigMap', 'cfg');
  const envCfg = input('ConfigMap', 'env-cfg');
  const projectedCfg = input('ConfigMap', 'projected-cfg');
  const secret = input('Secret', 'creds');
  const keySecret = input('Secret', 'key');
  const projectedSecret = input('Secret', 'projected-secret');
  const pullSecret = input('Secret', 'registry');
  const pvc = input('PersistentVolumeClaim', 'data', { spec: { volumeName: 'pv-data' } });
  const pv = input('PersistentVolume', 'pv-data', { spec: { claimRef: { namespace: 'default', name: 'data' } } });
  const pod = input('Pod', 'web-abc-1', {
    metadata: { name: 'web-abc-1', labels: { app: 'web' }, ...ownedBy(rs) },
    spec: {
      nodeName: 'node-1',
      imagePullSecrets: [{ name: 'registry' }],
      initContainers: [{ name: 'init', env: [{ name: 'K', valueFrom: { secretKeyRef: { name: 'key', key: 'k' } } }] }],
      containers: [
        {
          name: 'c',
          envFrom: [{ configMapRef: { name: 'cfg' } }, { secretRef: { name: 'creds' } }],
          env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'env-cfg', key: 'a' } } }, { name: 'B', value: 'b' }],
        },
      ],
      volumes: [
        { name: 'data', persistentVolumeClaim: { claimName: 'data' } },
        { name: 'all', projected: { sources: [{ configMap: { name: 'projected-cfg' } }, { secret: { name: 'projected-secret' } }, { serviceAccountToken: { path: 't' } }] } },
      ],
    },
  });
  const other = input('Pod', 'lonely', { metadata: { name: 'lonely', labels: { app: 'other' } } });
  const svc = input('Service', 'web', { spec: { selector: { app: 'web' } } });
  const ns = input('Namespace', 'default');
  const elsewhere = input('ConfigMap', 'cfg', {}, 'kube-system');
  const elsewherePv = input('PersistentVolume', 'pv-other', { spec: { claimRef: { namespace: 'team-a', name: 'x' } } });
  const all = [deployment, rs, pod, other, svc, node, cfg, envCfg, projectedCfg, secret, keySecret, projectedSecret, pullSecret, pvc, pv, ns, elsewhere, elsewherePv];

  it("shows the namespace's workload kinds, the Nodes and its volumes, not Namespaces or other namespaces' objects", () => {
    const g = buildObjectGraph(all, 'default');
    expect(g.nodes.map((n) => n.id).sort()).toEqual(
      [deployment, rs, pod, other, svc, node, cfg, envCfg, projectedCfg, secret, keySecret, projectedSecret, pullSecret, pvc, pv].map((i) => i.id).sort(),
    );
    expect(g.nodes.find((n) => n.id === rs.id)).toEqual({ id: rs.id, type: 'object', kind: 'ReplicaSet', name: 'web-abc', namespace: 'default', column: graphColumns.ReplicaSet });
  });

  it('shows every namespace with "All namespaces"', () => {
    const g = buildObjectGraph(all, AllNamespaces);
    expect(g.nodes.map((n) => n.id)).toContain(elsewhere.id);
    expect(g.nodes.map((n) => n.id)).toContain(elsewherePv.id);
    expect(g.nodes.map((n) => n.id)).not.toContain(ns.id);
  });

  it('links owners, selected pods, the node, everything a pod imports or mounts, and a claim to its volume', () => {
    const g = buildObjectGraph(all, 'default');
    expect(pairs(g)).toEqual(
      [
        `${deployment.id} -owns-> ${rs.id}`,
        `${rs.id} -owns-> ${pod.id}`,
        `${svc.id} -selects-> ${pod.id}`,
        `${pod.id} -runs on-> ${node.id}`,
        `${pod.id} -uses-> ${cfg.id}`,
        `${pod.id} -uses-> ${envCfg.id}`,
        `${pod.id} -uses-> ${secret.id}`,
        `${pod.id} -uses-> ${keySecret.id}`,
        `${pod.id} -uses-> ${pullSecret.id}`,
        `${pod.id} -mounts-> ${projectedCfg.id}`,
        `${pod.id} -mounts-> ${projectedSecret.id}`,
        `${pod.id} -mounts-> ${pvc.id}`,
        `${pvc.id} -is bound to-> ${pv.id}`,
      ].sort(),
    );
  });

  it('links a volume pre-bound by its claimRef to the claim before the claim names it', () => {
    const unboundClaim = input('PersistentVolumeClaim', 'data', { spec: {} });
    const g = buildObjectGraph([unboundClaim, pv], 'default');
    expect(g.edges).toEqual([{ id: `${unboundClaim.id}->${pv.id}`, source: unboundClaim.id, target: pv.id, kind: EdgeKind.BoundTo }]);
  });

  it('resolves names within the pod\'s own namespace when every namespace is shown', () => {
    const otherPod = input('Pod', 'p', { spec: { containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'cfg' } }] }] } }, 'kube-system');
    const g = buildObjectGraph([cfg, elsewhere, otherPod], AllNamespaces);
    expect(pairs(g)).toEqual([`${otherPod.id} -uses-> ${elsewhere.id}`]);
    expect(objectTitle(g.nodes.find((n) => n.id === elsewhere.id)!, true)).toBe('ConfigMap kube-system/cfg');
    expect(objectTitle(g.nodes.find((n) => n.id === elsewhere.id)!, false)).toBe('ConfigMap cfg');
  });

  it('links owners of any kind: CronJob → Job → Pod, StatefulSet → Pod', () => {
    const cronJob = input('CronJob', 'tick');
    const job = input('Job', 'tick-1', { metadata: { name: 'tick-1', ...ownedBy(cronJob) } });
    const jobPod = input('Pod', 'tick-1-x', { metadata: { name: 'tick-1-x', ...ownedBy(job) } });
    const sts = input('StatefulSet', 'db');
    const stsPod = input('Pod', 'db-0', { metadata: { name: 'db-0', ...ownedBy(sts) } });
    const g = buildObjectGraph([cronJob, job, jobPod, sts, stsPod], 'default');
    expect(pairs(g)).toEqual([`${cronJob.id} -owns-> ${job.id}`, `${job.id} -owns-> ${jobPod.id}`, `${sts.id} -owns-> ${stsPod.id}`].sort());
    expect(g.nodes.map((n) => [n.kind, n.column])).toEqual(
      expect.arrayContaining([
        ['CronJob', 0],
        ['Job', 1],
        ['StatefulSet', 1],
        ['Pod', 2],
      ]),
    );
  });

  it('keeps the signature across status-only changes and changes it when an object comes or goes', () => {
    const a = buildObjectGraph(all, 'default');
    const running = { ...pod, obj: { ...pod.obj, status: { phase: 'Running' } } as KubeObject };
    expect(buildObjectGraph(all.map((i) => (i === pod ? running : i)), 'default').signature).toBe(a.signature);
    expect(buildObjectGraph(all.filter((i) => i !== other), 'default').signature).not.toBe(a.signature);
  });

  const manyPods = (owner: GraphInput, n: number) =>
    Array.from({ length: n }, (_, i) =>
      input('Pod', `${owner.obj.metadata.name}-${i}`, { metadata: { name: `${owner.obj.metadata.name}-${i}`, labels: { app: 'web' }, ...ownedBy(owner) }, spec: { nodeName: 'node-1' } }),
    );

  it(`groups the pods of an owner with more than ${podGroupThreshold} into one node with merged edges`, () => {
    const pods = manyPods(rs, podGroupThreshold + 1);
    const g = buildObjectGraph([deployment, rs, svc, node, ...pods], 'default');
    const group = g.nodes.find((n) => n.type === 'pods')!;
    expect(group).toEqual({
      id: podGroupId(rs.id),
      type: 'pods',
      kind: 'Pod',
      name: 'pods of web-abc',
      namespace: 'default',
      column: graphColumns.Pod,
      owner: { id: rs.id, uid: rs.obj.metadata.uid, kind: 'ReplicaSet', name: 'web-abc' },
    });
    expect(g.nodes.filter((n) => n.kind === 'Pod')).toHaveLength(1);
    expect(pairs(g)).toEqual([`${deployment.id} -owns-> ${rs.id}`, `${rs.id} -owns-> ${group.id}`, `${svc.id} -selects-> ${group.id}`, `${group.id} -runs on-> ${node.id}`].sort());
    // A 500-pod Job is one node too.
    const job = input('Job', 'batch');
    expect(buildObjectGraph([job, ...manyPods(job, 500)], 'default').nodes.map((n) => n.id)).toEqual([podGroupId(job.id), job.id]);
  });

  it('shows the pods of an expanded owner one by one and marks the owner expanded', () => {
    const pods = manyPods(rs, podGroupThreshold + 1);
    const g = buildObjectGraph([rs, ...pods], 'default', { expanded: new Set([rs.id]) });
    expect(g.nodes.filter((n) => n.type === 'pods')).toHaveLength(0);
    expect(g.nodes.filter((n) => n.kind === 'Pod')).toHaveLength(podGroupThreshold + 1);
    expect(g.nodes.find((n) => n.id === rs.id)?.expanded).toBe(true);
    expect(g.signature).not.toBe(buildObjectGraph([rs, ...pods], 'default').signature);
  });

  it(`does not group an owner with exactly ${podGroupThreshold} pods`, () => {
    const g = buildObjectGraph([rs, ...manyPods(rs, podGroupThreshold)], 'default');
    expect(g.nodes.filter((n) => n.type === 'pods')).toHaveLength(0);
    expect(g.nodes.filter((n) => n.kind === 'Pod')).toHaveLength(podGroupThreshold);
  });

  const manyOf = (kind: string, prefix: string, n: number, namespace = 'default') => Array.from({ length: n }, (_, i) => input(kind, `${prefix}-${i}`, {}, namespace));

  it(`groups a namespace's ConfigMaps and Secrets that nothing links to beyond ${leafGroupThreshold}; linked ones stay nodes`, () => {
    const loose = manyOf('ConfigMap', 'loose', leafGroupThreshold + 1);
    const looseElsewhere = manyOf('ConfigMap', 'loose', leafGroupThreshold + 5, 'kube-system');
    const secrets = manyOf('Secret', 'token', leafGroupThreshold + 2);
    // Owned by a shown Deployment: linked, so one by one.
    const owned = input('ConfigMap', 'owned', { metadata: { name: 'owned', ...ownedBy(deployment) } });
    const g = buildObjectGraph([...all, ...loose, ...looseElsewhere, ...secrets, owned], 'default');
    const groups = g.nodes.filter((n) => n.type === GraphNodeType.Objects);
    expect(groups).toEqual([
      { id: leafGroupId('ConfigMap', 'default'), type: 'objects', kind: 'ConfigMap', name: 'ConfigMaps', namespace: 'default', column: graphColumns.ConfigMap, count: leafGroupThreshold + 1 },
      // The pod's pull secret and the others it uses are linked; the loose tokens are grouped.
      { id: leafGroupId('Secret', 'default'), type: 'objects', kind: 'Secret', name: 'Secrets', namespace: 'default', column: graphColumns.Secret, count: leafGroupThreshold + 2 },
    ]);
    // Every ConfigMap and Secret the pod mounts or reads, and the owned one, is still its own node with its edge.
    for (const used of [cfg, envCfg, projectedCfg, secret, keySecret, projectedSecret, pullSecret]) expect(g.edges.some((e) => e.source === pod.id && e.target === used.id)).toBe(true);
    expect(g.edges.some((e) => e.source === deployment.id && e.target === owned.id && e.kind === EdgeKind.Owns)).toBe(true);
    expect(g.nodes.filter((n) => n.kind === 'ConfigMap' && n.type === GraphNodeType.Object).map((n) => n.name).sort()).toEqual(['cfg', 'env-cfg', 'owned', 'projected-cfg']);
    expect(g.nodes.length).toBeLessThan(all.length + 3);
    expect(objectTitle(groups[0], false)).toBe('ConfigMaps in default');

    // Every namespace: one group per namespace and kind.
    const everywhere = buildObjectGraph([...all, ...loose, ...looseElsewhere, ...secrets], AllNamespaces);
    expect(everywhere.nodes.filter((n) => n.type === GraphNodeType.Objects).map((n) => `${n.id}#${n.count}`)).toEqual([
      `${leafGroupId('ConfigMap', 'default')}#${leafGroupThreshold + 1}`,
      `${leafGroupId('ConfigMap', 'kube-system')}#${leafGroupThreshold + 6}`,
      `${leafGroupId('Secret', 'default')}#${leafGroupThreshold + 2}`,
    ]);
  });

  it(`does not group ${leafGroupThreshold} loose ConfigMaps, shows an expanded group one by one, and a count change changes the signature`, () => {
    const twenty = manyOf('ConfigMap', 'loose', leafGroupThreshold);
    expect(buildObjectGraph([node, ...twenty], 'default').nodes.filter((n) => n.kind === 'ConfigMap')).toHaveLength(leafGroupThreshold);
    const more = [...twenty, input('ConfigMap', 'loose-x')];
    const grouped = buildObjectGraph([node, ...more], 'default');
    expect(grouped.nodes.map((n) => n.id)).toEqual([leafGroupId('ConfigMap', 'default'), node.id]);
    const expanded = buildObjectGraph([node, ...more], 'default', { expanded: new Set([leafGroupId('ConfigMap', 'default')]) });
    expect(expanded.nodes.filter((n) => n.kind === 'ConfigMap' && n.type === GraphNodeType.Object)).toHaveLength(leafGroupThreshold + 1);
    const oneMore = buildObjectGraph([node, ...more, input('ConfigMap', 'loose-y')], 'default');
    expect(oneMore.nodes.map((n) => n.id)).toEqual(grouped.nodes.map((n) => n.id));
    expect(oneMore.signature).not.toBe(grouped.signature);
    expect(parseLeafGroupId(leafGroupId('Secret', 'team-a'))).toEqual({ kind: 'Secret', namespace: 'team-a' });
    expect(parseLeafGroupId(podGroupId(rs.id))).toBeUndefined();
  });

  it('does not draw kube-root-ca.crt, which every namespace has and every pod projects', () => {
    const ca = input('ConfigMap', 'kube-root-ca.crt');
    const pod = input('Pod', 'web', {
      spec: { volumes: [{ name: 'kube-api-access-x1', projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }] } }, { name: 'cfg', configMap: { name: 'settings' } }] },
    });
    const g = buildObjectGraph([ca, pod, input('ConfigMap', 'settings')], 'default');
    expect(g.nodes.map((n) => n.name).sort()).toEqual(['settings', 'web']);
    expect(pairs(g)).toEqual(['/pods|default/web -mounts-> /configmaps|default/settings']);
  });

  it('bounds the graph of 10,000 loose ConfigMaps to one node', () => {
    const g = buildObjectGraph([node, ...manyOf('ConfigMap', 'bench-cm', 10_000)], 'default');
    expect(g.nodes.map((n) => `${n.id}#${n.count ?? ''}`)).toEqual([`${leafGroupId('ConfigMap', 'default')}#10000`, `${node.id}#`]);
  });
});

describe('buildObjectGraph over the workload controllers, as they really run', () => {
  let h: HeadlessCluster | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('links StatefulSet → Pods, DaemonSet → Pods, CronJob → Job → Pod, a Pod → its PVC, and each Pod → its Node', async () => {
    h = await createHeadlessCluster({ seed: 4 });
    const { cluster } = h;
    cluster.runUntil(() => cluster.client.serviceAccounts.list({ namespace: 'default' }).items.length === 1, 10_000);
    const meta = (name: string) => ({ name, namespace: 'default' });
    const template = (app: string) => ({ metadata: { labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx:1.14.2' }] } });
    cluster.client.persistentVolumeClaims.create({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: meta('data'), spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    cluster.client.statefulSets.create({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: meta('db'),
      spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: template('db') },
    });
    // A pod of its own that mounts the claim (bound or not, the edge is drawn).
    cluster.client.pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: meta('user'), spec: { ...template('user').spec, volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] } });
    cluster.client.daemonSets.create({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: meta('agent'), spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') } });
    cluster.client.cronJobs.create({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: meta('tick'),
      spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 600'] }] } } } } },
    });
    const pods = () => cluster.client.pods.list({ namespace: 'default' }).items;
    // The claim binds through the default StorageClass (WaitForFirstConsumer), so the user pod is placed too.
    const scheduled = () => pods().filter((p) => p.spec?.nodeName).length;
    expect(cluster.runUntil(() => scheduled() === 2 + 3 + 1 + 1, 180_000)).toBe(true);

    const items: [string, KubeObject[]][] = [
      ['apps/statefulsets', cluster.client.statefulSets.list().items as KubeObject[]],
      ['apps/daemonsets', cluster.client.daemonSets.list().items as KubeObject[]],
      ['batch/cronjobs', cluster.client.cronJobs.list().items as KubeObject[]],
      ['batch/jobs', cluster.client.jobs.list().items as KubeObject[]],
      ['/pods', pods() as KubeObject[]],
      ['/persistentvolumeclaims', cluster.client.persistentVolumeClaims.list().items as KubeObject[]],
      ['/nodes', cluster.client.nodes.list().items as KubeObject[]],
    ];
    const inputs = items.flatMap(([resource, list]) => list.map((obj) => ({ id: `${resource}|${obj.metadata.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata.name}`, obj })));
    const g = buildObjectGraph(inputs, 'default');
    const title = (id: string) => {
      const n = g.nodes.find((x) => x.id === id)!;
      return `${n.kind}${n.kind === 'Pod' || n.kind === 'Job' || n.kind === 'Node' ? '' : ` ${n.name}`}`;
    };
    const described = g.edges.map((e) => `${title(e.source)} ${e.kind} ${title(e.target)}`);
    const count = (line: string) => described.filter((d) => d === line).length;
    expect(count('StatefulSet db owns Pod')).toBe(2);
    expect(count('DaemonSet agent owns Pod')).toBe(3);
    expect(count('CronJob tick owns Job')).toBe(1);
    expect(count('Job owns Pod')).toBe(1);
    expect(count('Pod mounts PersistentVolumeClaim data')).toBe(1);
    expect(count('Pod runs on Node')).toBe(7);
  });
});
