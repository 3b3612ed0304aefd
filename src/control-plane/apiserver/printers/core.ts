// Core (v1) kinds other than pods: services, endpoints, nodes, namespaces, configmaps, secrets, service accounts,
// events, resource quotas, component statuses and replication controllers (printers.go, v1.32 columns).
import type { KubeObject } from '../../../shared/api/types';
import { canonicalQuantity } from '../../../shared/lib/quantity';
import {
  ageColumn,
  arr,
  column,
  field,
  formatLabels,
  layoutContainerCells,
  nameColumn,
  num,
  objectMeta,
  rec,
  str,
  translateTimestampSince,
  type KindPrinter,
} from './table';

const name = (obj: KubeObject): string => obj.metadata?.name ?? '';
const age = (obj: KubeObject, now: number): string => translateTimestampSince(obj.metadata?.creationTimestamp, now);

const templateColumns = (selectorDoc: string) => [
  column('Containers', 'string', 'Names of each container in the template.', { priority: 1 }),
  column('Images', 'string', 'Images referenced by each container in the template.', { priority: 1 }),
  column('Selector', 'string', selectorDoc, { priority: 1 }),
];

export const replicationControllerPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Desired', 'integer', 'io.k8s.api.core.v1.ReplicationControllerSpec#replicas'),
    column('Current', 'integer', 'io.k8s.api.core.v1.ReplicationControllerStatus#replicas'),
    column('Ready', 'integer', 'io.k8s.api.core.v1.ReplicationControllerStatus#readyReplicas'),
    ageColumn(),
    ...templateColumns('io.k8s.api.core.v1.ReplicationControllerSpec#selector'),
  ],
  cells(obj, { now }) {
    const [names, images] = layoutContainerCells(arr(field(obj, 'spec', 'template', 'spec', 'containers')));
    return [
      name(obj),
      num(field(obj, 'spec', 'replicas')),
      num(field(obj, 'status', 'replicas')),
      num(field(obj, 'status', 'readyReplicas')),
      age(obj, now),
      names,
      images,
      formatLabels(rec<string>(field(obj, 'spec', 'selector'))),
    ];
  },
};

// ---------------------------------------------------------------- services

/** loadBalancerStatusStringer with wide=true: the server always prints wide, so nothing is clipped. */
function loadBalancerIngress(ingress: unknown[]): string {
  const set = new Set<string>();
  for (const i of ingress) {
    const ip = str(field(i, 'ip'));
    const hostname = str(field(i, 'hostname'));
    if (ip) set.add(ip);
    else if (hostname) set.add(hostname);
  }
  return [...set].sort().join(',');
}

function serviceExternalIP(svc: KubeObject): string {
  const spec = rec(field(svc, 'spec'));
  const externalIPs = arr<string>(spec.externalIPs);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lbIps = loadBalancerIngress(arr(field(svc, 'status', 'loadBalancer', 'ingress')));
      if (externalIPs.length > 0) return [...(lbIps ? lbIps.split(',') : []), ...externalIPs].join(',');
      return lbIps || '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

function makePortString(ports: unknown[]): string {
  return ports
    .map((p) => {
      const port = num(field(p, 'port'));
      const protocol = str(field(p, 'protocol'));
      const nodePort = num(field(p, 'nodePort'));
      return nodePort > 0 ? `${port}:${nodePort}/${protocol}` : `${port}/${protocol}`;
    })
    .join(',');
}

const serviceSpec = 'io.k8s.api.core.v1.ServiceSpec';

export const servicePrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Type', 'string', `${serviceSpec}#type`),
    column('Cluster-IP', 'string', `${serviceSpec}#clusterIP`),
    column('External-IP', 'string', `${serviceSpec}#externalIPs`),
    column('Port(s)', 'string', `${serviceSpec}#ports`),
    ageColumn(),
    column('Selector', 'string', `${serviceSpec}#selector`, { priority: 1 }),
  ],
  cells(svc, { now }) {
    const spec = rec(field(svc, 'spec'));
    // The internal type always has ClusterIPs (conversion fills it from clusterIP).
    const clusterIPs = arr<string>(spec.clusterIPs);
    const internalIP = clusterIPs[0] ?? (str(spec.clusterIP) || '<none>');
    const ports = makePortString(arr(spec.ports)) || '<none>';
    return [name(svc), str(spec.type), internalIP, serviceExternalIP(svc), ports, age(svc, now), formatLabels(rec<string>(spec.selector))];
  },
};

/** formatEndpoints (ports = all): up to 3 "ip:port" (or bare IPs for port-less subsets), then " + N more...". */
function formatEndpoints(ep: KubeObject): string {
  const subsets = arr(field(ep, 'subsets'));
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  const max = 3;
  let more = false;
  let count = 0;
  for (const ss of subsets) {
    const addresses = arr(field(ss, 'addresses'));
    const ports = arr(field(ss, 'ports'));
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        list.push(str(field(a, 'ip')));
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        const ip = str(field(a, 'ip'));
        const host = ip.includes(':') ? `[${ip}]` : ip;
        list.push(`${host}:${num(field(port, 'port'))}`);
      }
    }
  }
  const ret = list.join(',');
  return more ? `${ret} + ${count - max} more...` : ret;
}

export const endpointsPrinter: KindPrinter = {
  columns: [nameColumn(), column('Endpoints', 'string', 'io.k8s.api.core.v1.Endpoints#subsets'), ageColumn()],
  cells: (obj, { now }) => [name(obj), formatEndpoints(obj), age(obj, now)],
};

// ---------------------------------------------------------------- nodes

const labelNodeRolePrefix = 'node-role.kubernetes.io/';
const nodeLabelRole = 'kubernetes.io/role';

/** findNodeRoles: node-role.kubernetes.io/<role> labels and kubernetes.io/role=<role>, sorted. */
export function findNodeRoles(node: KubeObject): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith(labelNodeRolePrefix)) {
      const role = k.slice(labelNodeRolePrefix.length);
      if (role) roles.add(role);
    } else if (k === nodeLabelRole && v !== '') {
      roles.add(v);
    }
  }
  return [...roles].sort();
}

function nodeAddress(node: KubeObject, type: string): string {
  const found = arr(field(node, 'status', 'addresses')).find((a) => field(a, 'type') === type);
  return found ? str(field(found, 'address')) : '<none>';
}

const nodeSystemInfo = 'io.k8s.api.core.v1.NodeSystemInfo';

export const nodePrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    ageColumn(),
    column('Version', 'string', `${nodeSystemInfo}#kubeletVersion`),
    column('Internal-IP', 'string', 'io.k8s.api.core.v1.NodeStatus#addresses', { priority: 1 }),
    column('External-IP', 'string', 'io.k8s.api.core.v1.NodeStatus#addresses', { priority: 1 }),
    column('OS-Image', 'string', `${nodeSystemInfo}#osImage`, { priority: 1 }),
    column('Kernel-Version', 'string', `${nodeSystemInfo}#kernelVersion`, { priority: 1 }),
    column('Container-Runtime', 'string', `${nodeSystemInfo}#containerRuntimeVersion`, { priority: 1 }),
  ],
  cells(node, { now }) {
    const status: string[] = [];
    const ready = arr(field(node, 'status', 'conditions')).find((c) => field(c, 'type') === 'Ready');
    if (ready) status.push(field(ready, 'status') === 'True' ? 'Ready' : 'NotReady');
    if (status.length === 0) status.push('Unknown');
    if (field(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
    const roles = findNodeRoles(node).join(',') || '<none>';
    const info = rec(field(node, 'status', 'nodeInfo'));
    return [
      name(node),
      status.join(','),
      roles,
      age(node, now),
      str(info.kubeletVersion),
      nodeAddress(node, 'InternalIP'),
      nodeAddress(node, 'ExternalIP'),
      str(info.osImage) || '<unknown>',
      str(info.kernelVersion) || '<unknown>',
      str(info.containerRuntimeVersion) || '<unknown>',
    ];
  },
};

// ---------------------------------------------------------------- config and identity

export const namespacePrinter: KindPrinter = {
  columns: [nameColumn(), column('Status', 'string', 'The status of the namespace'), ageColumn()],
  cells: (obj, { now }) => [name(obj), str(field(obj, 'status', 'phase')), age(obj, now)],
};

export const configMapPrinter: KindPrinter = {
  columns: [nameColumn(), column('Data', 'string', 'io.k8s.api.core.v1.ConfigMap#data'), ageColumn()],
  cells: (obj, { now }) => [name(obj), Object.keys(rec(field(obj, 'data'))).length + Object.keys(rec(field(obj, 'binaryData'))).length, age(obj, now)],
};

export const secretPrinter: KindPrinter = {
  columns: [nameColumn(), column('Type', 'string', 'io.k8s.api.core.v1.Secret#type'), column('Data', 'string', 'io.k8s.api.core.v1.Secret#data'), ageColumn()],
  cells: (obj, { now }) => [name(obj), str(field(obj, 'type')), Object.keys(rec(field(obj, 'data'))).length, age(obj, now)],
};

export const serviceAccountPrinter: KindPrinter = {
  columns: [nameColumn(), column('Secrets', 'string', 'io.k8s.api.core.v1.ServiceAccount#secrets'), ageColumn()],
  cells: (obj, { now }) => [name(obj), arr(field(obj, 'secrets')).length, age(obj, now)],
};

export const componentStatusPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Status', 'string', 'Status of the component conditions'),
    column('Message', 'string', 'Message of the component conditions'),
    column('Error', 'string', 'Error of the component conditions'),
  ],
  cells(obj) {
    let status = 'Unknown';
    let message = '';
    let error = '';
    const healthy = arr(field(obj, 'conditions')).find((c) => field(c, 'type') === 'Healthy');
    if (healthy) {
      status = field(healthy, 'status') === 'True' ? 'Healthy' : 'Unhealthy';
      message = str(field(healthy, 'message'));
      error = str(field(healthy, 'error'));
    }
    return [name(obj), status, message, error];
  },
};

/**
 * v1.32 order: NAME AGE REQUEST LIMIT (kubernetes#129419 moved AGE last in v1.33). Cells "res: used/hard, …" sorted
 * by resource name; limits.* go to LIMIT.
 */
export const resourceQuotaPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    ageColumn(),
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  cells(obj, { now }) {
    const hard = rec<string | number>(field(obj, 'status', 'hard'));
    const used = rec<string | number>(field(obj, 'status', 'used'));
    const request: string[] = [];
    const limit: string[] = [];
    for (const resource of Object.keys(hard).sort()) {
      const pieces = resource.split('.');
      const target = pieces.length > 1 && pieces[0] === 'limits' ? limit : request;
      target.push(`${resource}: ${quantity(used[resource])}/${quantity(hard[resource])}`);
    }
    return [name(obj), age(obj, now), request.join(', '), limit.join(', ')];
  },
};

/** resource.Quantity String(): canonical form, "0" when absent. */
export function quantity(v: unknown): string {
  if (typeof v !== 'string' && typeof v !== 'number') return '0';
  try {
    return canonicalQuantity(v);
  } catch {
    return String(v);
  }
}

// ---------------------------------------------------------------- events

/** A core/v1 Event, or an events.k8s.io/v1 Event read as the internal (core) type. */
function asCoreEvent(obj: KubeObject): Record<string, unknown> {
  if (!obj.apiVersion.startsWith('events.k8s.io/')) return obj as unknown as Record<string, unknown>;
  const e = obj as unknown as Record<string, unknown>;
  return {
    ...e,
    involvedObject: e.regarding,
    message: e.note,
    source: e.deprecatedSource,
    firstTimestamp: e.deprecatedFirstTimestamp,
    lastTimestamp: e.deprecatedLastTimestamp,
    count: e.deprecatedCount,
  };
}

function formatEventSource(e: Record<string, unknown>): string {
  const component = str(field(e, 'source', 'component')) || str(e.reportingController);
  const host = str(field(e, 'source', 'host')) || str(e.reportingInstance);
  return host ? `${component}, ${host}` : component;
}

const eventDoc = 'io.k8s.api.core.v1.Event';

export const eventPrinter: KindPrinter = {
  columns: [
    column('Last Seen', 'string', `${eventDoc}#lastTimestamp`),
    column('Type', 'string', `${eventDoc}#type`),
    column('Reason', 'string', `${eventDoc}#reason`),
    column('Object', 'string', `${eventDoc}#involvedObject`),
    column('Subobject', 'string', 'io.k8s.api.core.v1.ObjectReference#fieldPath', { priority: 1 }),
    column('Source', 'string', `${eventDoc}#source`, { priority: 1 }),
    column('Message', 'string', `${eventDoc}#message`),
    column('First Seen', 'string', `${eventDoc}#firstTimestamp`, { priority: 1 }),
    column('Count', 'string', `${eventDoc}#count`, { priority: 1 }),
    column('Name', 'string', `${objectMeta}#name`, { priority: 1, format: 'name' }),
  ],
  cells(obj, { now }) {
    const e = asCoreEvent(obj);
    let firstTimestamp = translateTimestampSince(str(e.firstTimestamp), now);
    if (!e.firstTimestamp) firstTimestamp = translateTimestampSince(str(e.eventTime), now);
    let lastTimestamp = translateTimestampSince(str(e.lastTimestamp), now);
    if (!e.lastTimestamp) lastTimestamp = firstTimestamp;
    let count = num(e.count);
    const series = e.series;
    if (series && typeof series === 'object') {
      lastTimestamp = translateTimestampSince(str(field(series, 'lastObservedTime')), now);
      count = num(field(series, 'count'));
    } else if (count === 0) {
      // Singleton events do not set a count in the new API.
      count = 1;
    }
    const kind = str(field(e, 'involvedObject', 'kind')).toLowerCase();
    const involvedName = str(field(e, 'involvedObject', 'name'));
    const target = involvedName ? `${kind}/${involvedName}` : kind;
    return [
      lastTimestamp,
      str(e.type),
      str(e.reason),
      target,
      str(field(e, 'involvedObject', 'fieldPath')),
      formatEventSource(e),
      str(e.message).trim(),
      firstTimestamp,
      count,
      name(obj),
    ];
  },
};
