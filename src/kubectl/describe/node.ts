// describeNode (describe.go NodeDescriber): conditions, addresses, capacity, system info, the lease, the
// non-terminated pods with their share of the node, allocated resources, and the node's events (both the
// controllers' — by the node's uid — and the kubelet's, which use the node name as uid).
import type { Lease } from 'kubernetes-types/coordination/v1';
import type { Event, Node, Pod } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import { quantityToString, toMillis, toValue, zeroQuantity, type Quantity } from '../../shared/lib/quantity';
import type { Describer } from './context';
import { quantityString } from './containers';
import { describeEvents, searchEvents } from './events';
import { safeEvents } from './pod';
import { addResourceLists, podRequestsAndLimits, toResourceList, type ResourceList } from './resources';
import {
  byteOrder,
  LEVEL_0,
  LEVEL_1,
  printAnnotationsMultiline,
  printLabelsMultiline,
  printTaintsMultiline,
  rfc1123z,
  tabbedString,
  timestampSince,
  type PrefixWriter,
} from './writer';

const nodeRolePrefix = 'node-role.kubernetes.io/';

/** findNodeRoles: node-role.kubernetes.io/<role> labels and kubernetes.io/role, sorted. */
export function findNodeRoles(node: Node): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata?.labels ?? {})) {
    if (k.startsWith(nodeRolePrefix) && k.length > nodeRolePrefix.length) roles.add(k.slice(nodeRolePrefix.length));
    else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return [...roles].sort(byteOrder);
}

export const describeNode: Describer = (s, _namespace, name) => {
  const node = s.client.nodes.get(name) as Node & KubeObject;
  let pods: Pod[] | undefined;
  try {
    pods = s.client.pods.list({ fieldSelector: `spec.nodeName=${name},status.phase!=Succeeded,status.phase!=Failed` }).items as Pod[];
  } catch (err) {
    if (!isStatusError(err, StatusReason.Forbidden)) throw err;
    pods = undefined;
  }
  let events: Event[] | undefined;
  if (s.showEvents) {
    const byUid = safeEvents(() => searchEvents(s.client, { name, kind: 'Node', uid: node.metadata.uid })) ?? [];
    const byName = safeEvents(() => searchEvents(s.client, { name, kind: 'Node', uid: name })) ?? [];
    events = [...byUid, ...byName];
  }
  let lease: Lease | string;
  try {
    lease = s.client.leases.get(name, { namespace: 'kube-node-lease' });
  } catch (err) {
    if (!isStatusError(err)) throw err;
    lease = err.message;
  }
  return tabbedString((w) => {
    const spec = node.spec ?? {};
    const st = node.status ?? {};
    const info = st.nodeInfo;
    w.write(LEVEL_0, `Name:\t${node.metadata.name}\n`);
    const roles = findNodeRoles(node);
    w.write(LEVEL_0, `Roles:\t${roles.length ? roles.join(',') : '<none>'}\n`);
    printLabelsMultiline(w, 'Labels', node.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', node.metadata.annotations);
    w.write(LEVEL_0, `CreationTimestamp:\t${rfc1123z(node.metadata.creationTimestamp)}\n`);
    printTaintsMultiline(w, 'Taints', spec.taints);
    w.write(LEVEL_0, `Unschedulable:\t${spec.unschedulable === true}\n`);
    if (typeof lease === 'string') w.write(LEVEL_0, `Lease:\tFailed to get lease: ${lease}\n`);
    else {
      w.write(LEVEL_0, 'Lease:\n');
      w.write(LEVEL_1, `HolderIdentity:\t${lease.spec?.holderIdentity ?? '<unset>'}\n`);
      w.write(LEVEL_1, `AcquireTime:\t${lease.spec?.acquireTime ? rfc1123z(lease.spec.acquireTime) : '<unset>'}\n`);
      w.write(LEVEL_1, `RenewTime:\t${lease.spec?.renewTime ? rfc1123z(lease.spec.renewTime) : '<unset>'}\n`);
    }
    if (st.conditions?.length) {
      w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
      w.write(LEVEL_1, '----\t------\t-----------------\t------------------\t------\t-------\n');
      for (const c of st.conditions) {
        w.write(LEVEL_1, `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`);
      }
    }
    w.write(LEVEL_0, 'Addresses:\n');
    for (const a of st.addresses ?? []) w.write(LEVEL_1, `${a.type}:\t${a.address}\n`);
    const printResourceList = (list: Record<string, unknown>) => {
      for (const k of Object.keys(list).sort(byteOrder)) w.write(LEVEL_0, `  ${k}:\t${quantityString(list[k])}\n`);
    };
    if (Object.keys(st.capacity ?? {}).length) {
      w.write(LEVEL_0, 'Capacity:\n');
      printResourceList(st.capacity!);
    }
    if (Object.keys(st.allocatable ?? {}).length) {
      w.write(LEVEL_0, 'Allocatable:\n');
      printResourceList(st.allocatable!);
    }
    w.write(LEVEL_0, 'System Info:\n');
    w.write(LEVEL_0, `  Machine ID:\t${info?.machineID ?? ''}\n`);
    w.write(LEVEL_0, `  System UUID:\t${info?.systemUUID ?? ''}\n`);
    w.write(LEVEL_0, `  Boot ID:\t${info?.bootID ?? ''}\n`);
    w.write(LEVEL_0, `  Kernel Version:\t${info?.kernelVersion ?? ''}\n`);
    w.write(LEVEL_0, `  OS Image:\t${info?.osImage ?? ''}\n`);
    w.write(LEVEL_0, `  Operating System:\t${info?.operatingSystem ?? ''}\n`);
    w.write(LEVEL_0, `  Architecture:\t${info?.architecture ?? ''}\n`);
    w.write(LEVEL_0, `  Container Runtime Version:\t${info?.containerRuntimeVersion ?? ''}\n`);
    w.write(LEVEL_0, `  Kubelet Version:\t${info?.kubeletVersion ?? ''}\n`);
    w.write(LEVEL_0, `  Kube-Proxy Version:\t${info?.kubeProxyVersion ?? ''}\n`);
    if (spec.podCIDR) w.write(LEVEL_0, `PodCIDR:\t${spec.podCIDR}\n`);
    if (spec.podCIDRs?.length) w.write(LEVEL_0, `PodCIDRs:\t${spec.podCIDRs.join(',')}\n`);
    if (spec.providerID) w.write(LEVEL_0, `ProviderID:\t${spec.providerID}\n`);
    if (pods) describeNodeResource(pods, node, w, s.now);
    else w.write(LEVEL_0, 'Pods:\tnot authorized\n');
    if (events) describeEvents(events, w, s.now);
  });
};

const zero = zeroQuantity();

function get(list: ResourceList, name: string): Quantity {
  return list.get(name) ?? zero;
}

/** int64(float64(a) / float64(b) * 100), as Go computes the percentages. */
function percent(a: number, b: number): number {
  return Math.trunc((a / b) * 100);
}

function isStandardContainerResource(name: string): boolean {
  return name === 'cpu' || name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-');
}

function describeNodeResource(pods: Pod[], node: Node, w: PrefixWriter, now: number): void {
  w.write(LEVEL_0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
  w.write(LEVEL_1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
  w.write(LEVEL_1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
  const allocatable = toResourceList(Object.keys(node.status?.allocatable ?? {}).length ? node.status?.allocatable : node.status?.capacity);
  const allocCpu = toMillis(get(allocatable, 'cpu'));
  const allocMem = toValue(get(allocatable, 'memory'));
  const reqs: ResourceList = new Map();
  const limits: ResourceList = new Map();
  for (const pod of pods) {
    const r = podRequestsAndLimits(pod);
    addResourceLists(reqs, r.requests);
    addResourceLists(limits, r.limits);
    const cpuReq = get(r.requests, 'cpu');
    const cpuLim = get(r.limits, 'cpu');
    const memReq = get(r.requests, 'memory');
    const memLim = get(r.limits, 'memory');
    w.write(
      LEVEL_1,
      `${pod.metadata?.namespace}\t${pod.metadata?.name}\t\t${quantityToString(cpuReq)} (${percent(toMillis(cpuReq), allocCpu)}%)\t${quantityToString(cpuLim)} (${percent(toMillis(cpuLim), allocCpu)}%)\t${quantityToString(memReq)} (${percent(toValue(memReq), allocMem)}%)\t${quantityToString(memLim)} (${percent(toValue(memLim), allocMem)}%)\t${timestampSince(pod.metadata?.creationTimestamp, now)}\n`,
    );
  }
  w.write(LEVEL_0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
  w.write(LEVEL_1, 'Resource\tRequests\tLimits\n');
  w.write(LEVEL_1, '--------\t--------\t------\n');
  const line = (name: string, scale: (q: Quantity) => number) => {
    const alloc = scale(get(allocatable, name));
    const rq = get(reqs, name);
    const lm = get(limits, name);
    const fr = alloc !== 0 ? percent(scale(rq), alloc) : 0;
    const fl = alloc !== 0 ? percent(scale(lm), alloc) : 0;
    w.write(LEVEL_1, `${name}\t${quantityToString(rq)} (${fr}%)\t${quantityToString(lm)} (${fl}%)\n`);
  };
  line('cpu', toMillis);
  line('memory', toValue);
  line('ephemeral-storage', toValue);
  const names = [...allocatable.keys()];
  for (const name of names.filter((n) => n.startsWith('hugepages-')).sort(byteOrder)) line(name, toValue);
  for (const name of names.filter((n) => !isStandardContainerResource(n) && n !== 'pods').sort(byteOrder)) {
    w.write(LEVEL_1, `${name}\t${quantityToString(get(reqs, name))}\t${quantityToString(get(limits, name))}\n`);
  }
}
