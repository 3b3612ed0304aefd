// The server-side printers (printers.go v1.32 cell rules), the default and custom-resource convertors, and the
// as=Table option of get, list and watch.
import { describe, expect, it } from 'vitest';
import { builtinResourceTypes, type ResourceType } from '../../../shared/api/resources';
import type { KubeObject, WatchEvent } from '../../../shared/api/types';
import { createCluster } from '../../cluster';
import { convertToTable, printerFor, tableWatchHandler } from './convert';
import { humanDuration } from '../../../shared/lib/duration';
import type { Table } from './table';

const now = Date.parse('2026-01-01T01:00:00Z');
const ago = (ms: number): string => new Date(now - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const rt = (group: string, resource: string): ResourceType => builtinResourceTypes.find((t) => t.group === group && t.resource === resource)!;

/** The visible (priority 0) cells, or all of them with wide. */
function cells(group: string, resource: string, obj: object, wide = false): unknown[] {
  const table = convertToTable(rt(group, resource), obj as KubeObject, { now });
  const row = table.rows[0].cells;
  return wide ? row : row.filter((_, i) => table.columnDefinitions[i].priority === 0);
}

function pod(status: object, spec: object = {}, meta: object = {}): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default', creationTimestamp: ago(300_000), ...meta },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
    status,
  };
}

const running = { running: { startedAt: ago(200_000) } };

describe('pods', () => {
  it('READY, STATUS, RESTARTS and AGE of a running pod, and the wide columns', () => {
    const p = pod(
      { phase: 'Running', podIP: '10.244.1.5', podIPs: [{ ip: '10.244.1.5' }], conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: running }] },
      { nodeName: 'node-1' },
    );
    expect(cells('', 'pods', p, true)).toEqual(['p', '1/1', 'Running', '0', '5m', '10.244.1.5', 'node-1', '<none>', '<none>']);
  });

  it('a crash loop shows the waiting reason and the restarts with the time of the last one', () => {
    const p = pod({
      phase: 'Running',
      containerStatuses: [{ name: 'c', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: ago(12_000) } } }],
    });
    expect(cells('', 'pods', p)).toEqual(['p', '0/1', 'CrashLoopBackOff', '3 (12s ago)', '5m']);
  });

  it('init containers: Init:N/M, Init:<reason>, Init:ExitCode:N; sidecars count in READY', () => {
    const init = [{ name: 'a', image: 'x' }, { name: 'b', image: 'x' }];
    expect(cells('', 'pods', pod({ phase: 'Pending', initContainerStatuses: [{ name: 'a', state: { running: {} } }, { name: 'b', state: { waiting: { reason: 'PodInitializing' } } }] }, { initContainers: init }))[2]).toBe('Init:0/2');
    expect(cells('', 'pods', pod({ phase: 'Pending', initContainerStatuses: [{ name: 'a', state: { waiting: { reason: 'CrashLoopBackOff' } } }] }, { initContainers: init }))[2]).toBe('Init:CrashLoopBackOff');
    expect(cells('', 'pods', pod({ phase: 'Pending', initContainerStatuses: [{ name: 'a', state: { terminated: { exitCode: 2 } } }] }, { initContainers: init }))[2]).toBe('Init:ExitCode:2');
    const sidecar = pod(
      {
        phase: 'Running',
        conditions: [{ type: 'Initialized', status: 'True' }, { type: 'Ready', status: 'True' }],
        initContainerStatuses: [{ name: 'proxy', started: true, ready: true, restartCount: 1, state: running }],
        containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: running }],
      },
      { initContainers: [{ name: 'proxy', image: 'envoy', restartPolicy: 'Always' }] },
    );
    expect(cells('', 'pods', sidecar).slice(1, 4)).toEqual(['2/2', 'Running', '1']);
  });

  it('Completed, Terminating, Unknown (node lost), SchedulingGated and NotReady', () => {
    const done = pod({ phase: 'Succeeded', containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] });
    expect(cells('', 'pods', done)[2]).toBe('Completed');
    expect(convertToTable(rt('', 'pods'), done as KubeObject, { now }).rows[0].conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    const ready = { name: 'c', ready: true, state: running };
    expect(cells('', 'pods', pod({ phase: 'Running', containerStatuses: [ready] }, {}, { deletionTimestamp: ago(1000) }))[2]).toBe('Terminating');
    expect(cells('', 'pods', pod({ phase: 'Running', reason: 'NodeLost', containerStatuses: [ready] }, {}, { deletionTimestamp: ago(1000) }))[2]).toBe('Unknown');
    expect(cells('', 'pods', pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }))[2]).toBe('SchedulingGated');
    const twoContainers = pod(
      { phase: 'Running', containerStatuses: [{ name: 'c', ready: true, state: running }, { name: 'd', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] },
      { containers: [{ name: 'c' }, { name: 'd' }] },
    );
    expect(cells('', 'pods', twoContainers).slice(1, 3)).toEqual(['1/2', 'NotReady']);
  });

  it('READINESS GATES counts the gates whose condition is True', () => {
    const p = pod({ phase: 'Running', conditions: [{ type: 'example.com/a', status: 'True' }, { type: 'example.com/b', status: 'False' }] }, { readinessGates: [{ conditionType: 'example.com/a' }, { conditionType: 'example.com/b' }] });
    expect(cells('', 'pods', p, true)[8]).toBe('1/2');
  });
});

describe('services, nodes and config', () => {
  const svc = (spec: object, status: object = {}) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', creationTimestamp: ago(60_000) }, spec, status });

  it('TYPE, CLUSTER-IP, EXTERNAL-IP and PORT(S) for every service type', () => {
    expect(cells('', 'services', svc({ type: 'ClusterIP', clusterIPs: ['10.96.0.1'], ports: [{ port: 443, protocol: 'TCP' }], selector: { app: 'a' } }), true)).toEqual(['s', 'ClusterIP', '10.96.0.1', '<none>', '443/TCP', '60s', 'app=a']);
    expect(cells('', 'services', svc({ type: 'ClusterIP', clusterIPs: ['None'], ports: [{ port: 80, protocol: 'TCP' }] }))[2]).toBe('None');
    expect(cells('', 'services', svc({ type: 'NodePort', clusterIPs: ['10.96.1.1'], externalIPs: ['1.2.3.4'], ports: [{ port: 80, nodePort: 31234, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] })).slice(3, 5)).toEqual(['1.2.3.4', '80:31234/TCP,53/UDP']);
    expect(cells('', 'services', svc({ type: 'LoadBalancer', clusterIPs: ['10.96.2.2'], ports: [] }))[3]).toBe('<pending>');
    // The server prints wide: long load-balancer addresses are not clipped.
    expect(cells('', 'services', svc({ type: 'LoadBalancer', externalIPs: ['5.6.7.8'] }, { loadBalancer: { ingress: [{ hostname: 'a-very-long-hostname.example.com' }, { ip: '1.1.1.1' }] } }))[3]).toBe('1.1.1.1,a-very-long-hostname.example.com,5.6.7.8');
    expect(cells('', 'services', svc({ type: 'ExternalName', externalName: 'example.com' }))).toEqual(['s', 'ExternalName', '<none>', 'example.com', '<none>', '60s']);
  });

  it('node STATUS and ROLES', () => {
    const node = (labels: object, conditions: object[], unschedulable = false) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n', labels, creationTimestamp: ago(3 * 3600_000) },
      spec: { unschedulable },
      status: { conditions, nodeInfo: { kubeletVersion: 'v1.32.0' } },
    });
    expect(cells('', 'nodes', node({ 'node-role.kubernetes.io/worker': '', 'node-role.kubernetes.io/control-plane': '' }, [{ type: 'Ready', status: 'True' }], true))).toEqual(['n', 'Ready,SchedulingDisabled', 'control-plane,worker', '3h', 'v1.32.0']);
    expect(cells('', 'nodes', node({ 'kubernetes.io/role': 'master' }, [{ type: 'Ready', status: 'Unknown' }])).slice(1, 3)).toEqual(['NotReady', 'master']);
    expect(cells('', 'nodes', node({}, [])).slice(1, 3)).toEqual(['Unknown', '<none>']);
    expect(cells('', 'nodes', node({}, []), true).slice(5)).toEqual(['<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });

  it('DATA counts, service account secrets, namespace phase', () => {
    expect(cells('', 'configmaps', { metadata: { name: 'c', creationTimestamp: ago(5000) }, data: { a: '1' }, binaryData: { b: 'AA==' } })).toEqual(['c', 2, '5s']);
    expect(cells('', 'secrets', { metadata: { name: 's', creationTimestamp: ago(5000) }, type: 'Opaque', data: { a: 'MQ==' } })).toEqual(['s', 'Opaque', 1, '5s']);
    expect(cells('', 'namespaces', { metadata: { name: 'x', creationTimestamp: ago(90_000_000) }, status: { phase: 'Terminating' } })).toEqual(['x', 'Terminating', '25h']);
  });

  it('resource quotas: v1.32 column order NAME AGE REQUEST LIMIT, resources sorted, limits.* under LIMIT', () => {
    const printer = printerFor(rt('', 'resourcequotas'));
    expect(printer.columns.map((c) => c.name)).toEqual(['Name', 'Age', 'Request', 'Limit']);
    const quota = { metadata: { name: 'q', creationTimestamp: ago(60_000) }, status: { hard: { pods: '10', 'limits.cpu': '2', 'requests.cpu': '1' }, used: { pods: '2', 'requests.cpu': '500m' } } };
    expect(cells('', 'resourcequotas', quota)).toEqual(['q', '60s', 'pods: 2/10, requests.cpu: 500m/1', 'limits.cpu: 0/2']);
  });

  it('events: LAST SEEN from lastTimestamp, then firstTimestamp, then eventTime; OBJECT kind/name; events.k8s.io read as core', () => {
    const core = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'web-0' }, type: 'Normal', reason: 'Pulled', message: ' Pulled image \n', firstTimestamp: ago(120_000), source: { component: 'kubelet', host: 'node-1' } };
    expect(cells('', 'events', core, true)).toEqual(['2m', 'Normal', 'Pulled', 'pod/web-0', '', 'kubelet, node-1', 'Pulled image', '2m', 1, 'e']);
    const modern = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e2' }, regarding: { kind: 'Deployment', name: 'web' }, type: 'Normal', reason: 'ScalingReplicaSet', note: 'Scaled up', eventTime: ago(30_000), reportingController: 'deployment-controller' };
    expect(cells('events.k8s.io', 'events', modern)).toEqual(['30s', 'Normal', 'ScalingReplicaSet', 'deployment/web', 'Scaled up']);
  });
});

describe('workloads and the rest', () => {
  const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'a', image: 'nginx:1' }, { name: 'b', image: 'busybox' }] } };

  it('deployments, replica sets, stateful sets and daemon sets, with the wide columns', () => {
    const meta = { name: 'd', creationTimestamp: ago(600_000) };
    expect(cells('apps', 'deployments', { metadata: meta, spec: { replicas: 3, selector: { matchLabels: { app: 'a' } }, template }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } }, true)).toEqual(['d', '2/3', 3, 2, '10m', 'a,b', 'nginx:1,busybox', 'app=a']);
    expect(cells('apps', 'replicasets', { metadata: meta, spec: { replicas: 2, selector: { matchLabels: { app: 'a' } }, template }, status: { replicas: 2 } })).toEqual(['d', 2, 2, 0, '10m']);
    expect(cells('apps', 'statefulsets', { metadata: meta, spec: { replicas: 2, template }, status: { readyReplicas: 1 } })).toEqual(['d', '1/2', '10m']);
    expect(cells('apps', 'daemonsets', { metadata: meta, spec: { template: { spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'linux' } } } }, status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 3 } })).toEqual([
      'd', 3, 3, 3, 3, 3, 'kubernetes.io/os=linux', '10m',
    ]);
  });

  it('jobs: STATUS, COMPLETIONS and DURATION', () => {
    const job = (spec: object, status: object, meta: object = {}) => ({ metadata: { name: 'j', creationTimestamp: ago(300_000), ...meta }, spec: { template, ...spec }, status });
    expect(cells('batch', 'jobs', job({ completions: 3 }, { succeeded: 1, startTime: ago(90_000) }))).toEqual(['j', 'Running', '1/3', '90s', '5m']);
    expect(cells('batch', 'jobs', job({ parallelism: 2 }, { succeeded: 0 }))).toEqual(['j', 'Running', '0/1 of 2', '', '5m']);
    expect(cells('batch', 'jobs', job({ completions: 1 }, { succeeded: 1, startTime: ago(200_000), completionTime: ago(170_000), conditions: [{ type: 'Complete', status: 'True' }] }))).toEqual(['j', 'Complete', '1/1', '30s', '5m']);
    expect(cells('batch', 'jobs', job({}, { conditions: [{ type: 'Failed', status: 'True' }] }))[1]).toBe('Failed');
    expect(cells('batch', 'jobs', job({}, {}, { deletionTimestamp: ago(0) }))[1]).toBe('Terminating');
    expect(cells('batch', 'jobs', job({}, { conditions: [{ type: 'Suspended', status: 'True' }] }))[1]).toBe('Suspended');
  });

  it('cron jobs: TIMEZONE, SUSPEND and LAST SCHEDULE', () => {
    const cj = { metadata: { name: 'c', creationTimestamp: ago(3600_000) }, spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template } } }, status: { active: [{}], lastScheduleTime: ago(240_000) } };
    expect(cells('batch', 'cronjobs', cj)).toEqual(['c', '*/5 * * * *', '<none>', 'False', 1, '4m', '60m']);
  });

  it('claims and volumes', () => {
    const meta = { name: 'v', creationTimestamp: ago(60_000) };
    expect(cells('', 'persistentvolumeclaims', { metadata: meta, spec: { storageClassName: 'standard', resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Pending' } })).toEqual(['v', 'Pending', '', '', '', 'standard', '<unset>', '60s']);
    expect(cells('', 'persistentvolumeclaims', { metadata: meta, spec: { volumeName: 'pv-1', storageClassName: 'manual' }, status: { phase: 'Bound', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'] } })).toEqual(['v', 'Bound', 'pv-1', '10Gi', 'RWO,RWX', 'manual', '<unset>', '60s']);
    expect(cells('', 'persistentvolumes', { metadata: meta, spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Retain', claimRef: { namespace: 'default', name: 'data' }, storageClassName: 'manual' }, status: { phase: 'Bound' } })).toEqual(['v', '10Gi', 'RWO', 'Retain', 'Bound', 'default/data', 'manual', '<unset>', '', '60s']);
  });

  it('horizontal pod autoscalers, ingresses, disruption budgets, bindings and priority classes', () => {
    const meta = { name: 'x', creationTimestamp: ago(60_000) };
    const hpa = { metadata: meta, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] }, status: { currentReplicas: 1 } };
    expect(cells('autoscaling', 'horizontalpodautoscalers', hpa)).toEqual(['x', 'Deployment/web', 'cpu: <unknown>/50%', '<unset>', 5, 1, '60s']);
    const ing = { metadata: meta, spec: { rules: [{ host: 'a.com' }, {}, { host: 'b.com' }, { host: 'c.com' }, { host: 'd.com' }], tls: [{}] } };
    // Up to 3 hosts; "more" counts the rules beyond the first 3, with or without a host.
    expect(cells('networking.k8s.io', 'ingresses', ing)).toEqual(['x', '<none>', 'a.com,b.com,c.com + 2 more...', '', '80, 443', '60s']);
    expect(cells('networking.k8s.io', 'ingresses', { metadata: meta, spec: { ingressClassName: 'nginx', rules: [{}] } }).slice(1, 5)).toEqual(['nginx', '*', '', '80']);
    expect(cells('policy', 'poddisruptionbudgets', { metadata: meta, spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 1 } })).toEqual(['x', '50%', 'N/A', 1, '60s']);
    const rb = { metadata: meta, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'jane' }, { kind: 'ServiceAccount', namespace: 'ci', name: 'bot' }] };
    expect(cells('rbac.authorization.k8s.io', 'rolebindings', rb, true)).toEqual(['x', 'ClusterRole/view', '60s', 'jane', '', 'ci/bot']);
    expect(cells('scheduling.k8s.io', 'priorityclasses', { metadata: meta, value: 1000, globalDefault: false, preemptionPolicy: 'Never' })).toEqual(['x', 1000, false, '60s', 'Never']);
  });

  it('kinds without a printer get NAME and CREATED AT (RFC 3339, UTC)', () => {
    const table = convertToTable(rt('rbac.authorization.k8s.io', 'roles'), { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', creationTimestamp: '2026-01-01T00:00:00Z' } }, { now });
    expect(table.columnDefinitions.map((c) => [c.name, c.type])).toEqual([['Name', 'string'], ['Created At', 'date']]);
    expect(table.rows[0].cells).toEqual(['r', '2026-01-01T00:00:00Z']);
  });
});

describe('custom resources', () => {
  const crontab: ResourceType = { group: 'stable.example.com', version: 'v1', kind: 'CronTab', resource: 'crontabs', singular: 'crontab', namespaced: true, shortNames: [], categories: [], subresources: { status: false, scale: false }, verbs: [], custom: true };
  const crd = (columns?: object[]) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: { versions: [{ name: 'v1', additionalPrinterColumns: columns }] },
  });
  const reader = (obj: object) => ({ get: () => obj as KubeObject, list: () => [] });
  const cr = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'my-cron', creationTimestamp: ago(120_000) }, spec: { cronSpec: '* * * * */5', replicas: 3, image: 'my-cron-image' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } };

  it('NAME and AGE when the CRD declares no columns', () => {
    const table = convertToTable(crontab, cr, { now, reader: reader(crd()) });
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Age']);
    expect(table.rows[0].cells).toEqual(['my-cron', '2m']);
  });

  it('NAME then the declared columns (JSONPath cells, typed; missing values empty; priority kept)', () => {
    const columns = [
      { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Missing', type: 'string', jsonPath: '.spec.nothing' },
      { name: 'Image', type: 'string', jsonPath: '.spec.image', priority: 1 },
    ];
    const table = convertToTable(crontab, cr, { now, reader: reader(crd(columns)) });
    expect(table.columnDefinitions.map((c) => [c.name, c.priority])).toEqual([['Name', 0], ['Spec', 0], ['Replicas', 0], ['Ready', 0], ['Missing', 0], ['Image', 1]]);
    expect(table.rows[0].cells).toEqual(['my-cron', '* * * * */5', 3, 'True', null, 'my-cron-image']);
  });
});

describe('Table responses', () => {
  it('rows carry PartialObjectMetadata by default, the object with includeObject=Object, nothing with None', () => {
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: 'b' } }, data: { x: '1' } };
    const row = (includeObject?: 'None' | 'Metadata' | 'Object') => convertToTable(rt('', 'configmaps'), obj, { now, includeObject }).rows[0].object;
    expect(row()).toEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: obj.metadata });
    expect(row('Object')).toBe(obj);
    expect(row('None')).toBeUndefined();
  });

  it('a watch of Tables sends the column definitions with the first event only', () => {
    const seen: WatchEvent[] = [];
    const handler = tableWatchHandler(rt('', 'configmaps'), { now: () => now }, (events) => seen.push(...events));
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, creationTimestamp: ago(1000) } });
    handler([{ type: 'ADDED', object: cm('a') }]);
    handler([{ type: 'MODIFIED', object: cm('a') }, { type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '9' } } }]);
    const tables = seen.map((e) => e.object as unknown as Table);
    expect(tables[0].columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(tables[1].columnDefinitions).toEqual([]);
    expect(tables[1].rows[0].cells).toEqual(['a', 0, '1s']);
    expect(seen[2].type).toBe('BOOKMARK');
  });

  it('get and list answer with a Table when asked (as=Table), carrying the list resourceVersion', async () => {
    const cluster = await createCluster({ controllers: false, nodes: 0, scheduler: false });
    cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game', namespace: 'default' }, data: { a: '1' } });
    cluster.advance(65_000);
    const list = cluster.client.handle<Table>({ verb: 'list', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', options: { as: 'Table' } }).body;
    expect(list.kind).toBe('Table');
    expect(list.metadata.resourceVersion).toBe(String(cluster.store.revision));
    expect(list.rows.map((r) => r.cells)).toEqual([['game', 1, '65s']]);
    const one = cluster.client.handle<Table>({ verb: 'get', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', name: 'game', options: { as: 'Table' } }).body;
    expect(one.rows).toHaveLength(1);
    const events: WatchEvent[] = [];
    const w = cluster.client.watch({ verb: 'watch', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', options: { as: 'Table', resourceVersion: list.metadata.resourceVersion } }, (e) => events.push(...e));
    cluster.client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'later', namespace: 'default' } });
    cluster.runUntilIdle();
    w.stop();
    expect(events.map((e) => [e.type, (e.object as unknown as Table).rows[0].cells[0]])).toEqual([['ADDED', 'later']]);
    await cluster.close();
  });
});

describe('humanDuration', () => {
  it('follows apimachinery duration.HumanDuration', () => {
    const s = 1000;
    const cases: [number, string][] = [
      [-1500, '0s'],
      [-2000, '<invalid>'],
      [119 * s, '119s'],
      [120 * s, '2m'],
      [150 * s, '2m30s'],
      [10 * 60 * s, '10m'],
      [179 * 60 * s, '179m'],
      [3 * 3600 * s, '3h'],
      [(3 * 60 + 5) * 60 * s, '3h5m'],
      [8 * 3600 * s, '8h'],
      [47 * 3600 * s, '47h'],
      [50 * 3600 * s, '2d2h'],
      [8 * 24 * 3600 * s, '8d'],
      [800 * 24 * 3600 * s, '2y70d'],
      [9 * 365 * 24 * 3600 * s, '9y'],
    ];
    for (const [ms, text] of cases) expect(humanDuration(ms)).toBe(text);
  });
});
