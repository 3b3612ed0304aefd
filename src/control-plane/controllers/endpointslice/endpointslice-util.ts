// Helpers shared by the EndpointSlice and Endpoints controllers (staging/src/k8s.io/endpointslice/util and
// pkg/controller/util/endpoint): which pods belong in a Service's endpoints, the port a service port resolves to
// on a pod (named targetPorts), the Services a pod is a member of, and the endpoint a pod becomes.
import type { Node, Pod, Service, ServicePort } from 'kubernetes-types/core/v1';
import type { Endpoint, EndpointPort, EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { Lister } from '../../informers/shared-informer';
import { selectorFromSet, selectorMatches } from '../../../shared/lib/labels';
import { isPodReady, newControllerRef } from '../shared/controller-utils';

export const LabelServiceName = 'kubernetes.io/service-name';
export const LabelManagedBy = 'endpointslice.kubernetes.io/managed-by';
export const ControllerManagedBy = 'endpointslice-controller.k8s.io';
/** v1.IsHeadlessService: set on the Endpoints and EndpointSlices of a headless Service. */
export const LabelHeadlessService = 'service.kubernetes.io/headless';
export const LabelTopologyZone = 'topology.kubernetes.io/zone';
/** v1.EndpointsLastChangeTriggerTime. */
export const AnnotationLastChangeTriggerTime = 'endpoints.kubernetes.io/last-change-trigger-time';
export const AddressType = { IPv4: 'IPv4', IPv6: 'IPv6', FQDN: 'FQDN' } as const;
export type AddressType = (typeof AddressType)[keyof typeof AddressType];

/** The selector of a Service, or undefined when it has none (a user-managed Service). An empty map is none. */
export function serviceSelector(service: Service): Record<string, string> | undefined {
  const sel = service.spec?.selector;
  return sel && Object.keys(sel).length > 0 ? sel : undefined;
}

/** podutil.IsPodTerminal. */
export function isPodTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** endpointsliceutil.ShouldPodBeInEndpoints: not terminal, has an IP, and (unless included) not terminating. */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  if (isPodTerminal(pod)) return false;
  if (!pod.status?.podIP && (pod.status?.podIPs ?? []).length === 0) return false;
  if (!includeTerminating && pod.metadata?.deletionTimestamp) return false;
  return true;
}

/**
 * podutil.FindPort: a numeric targetPort is used as is; a named one is the containerPort of the pod's container
 * port of that name and protocol. Throws when the pod has no such port (the pod is then left out for this port).
 */
export function findPort(pod: Pod, svcPort: ServicePort): number {
  const target = svcPort.targetPort ?? svcPort.port;
  if (typeof target === 'number') return target;
  if (/^[0-9]+$/.test(target)) return Number(target);
  const protocol = svcPort.protocol ?? 'TCP';
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) {
      if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
    }
  }
  throw new Error(`no suitable port for manifest: ${pod.metadata?.uid ?? ''}`);
}

/** getEndpointPorts: the service's ports resolved on one pod, in the service's order. */
export function getEndpointPorts(service: Service, pod: Pod): EndpointPort[] {
  const out: EndpointPort[] = [];
  for (const sp of service.spec?.ports ?? []) {
    let port: number;
    try {
      port = findPort(pod, sp);
    } catch {
      continue;
    }
    const ep: EndpointPort = { name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP' };
    if (sp.appProtocol) ep.appProtocol = sp.appProtocol;
    out.push(ep);
  }
  return out;
}

/** A stable key for a list of ports (endpointsliceutil's hash of the sorted ports). */
export function portsKey(ports: readonly EndpointPort[] | null | undefined): string {
  return JSON.stringify(
    [...(ports ?? [])]
      .map((p) => [p.name ?? '', p.port ?? 0, p.protocol ?? '', p.appProtocol ?? ''])
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
  );
}

/** endpointutil.ShouldSetHostname: the pod's hostname, when its subdomain is this Service. */
export function shouldSetHostname(pod: Pod, service: Service): boolean {
  return !!pod.spec?.hostname && pod.spec.subdomain === service.metadata?.name && pod.metadata?.namespace === service.metadata?.namespace;
}

function isIPv6(ip: string): boolean {
  return ip.includes(':');
}

/** The pod IPs of one family (getEndpointAddresses). */
export function podAddresses(pod: Pod, addressType: AddressType): string[] {
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip).filter((ip): ip is string => !!ip);
  if (ips.length === 0 && pod.status?.podIP) ips.push(pod.status.podIP);
  for (const ip of ips) {
    if ((addressType === AddressType.IPv6) === isIPv6(ip)) return [ip];
  }
  return [];
}

/**
 * podToEndpoint: serving is the pod's readiness; terminating its deletionTimestamp; ready is serving and not
 * terminating — or always, with publishNotReadyAddresses.
 */
export function podToEndpoint(pod: Pod, node: Node | undefined, service: Service, addressType: AddressType): Endpoint {
  const serving = isPodReady(pod);
  const terminating = !!pod.metadata?.deletionTimestamp;
  const ready = service.spec?.publishNotReadyAddresses === true || (serving && !terminating);
  const ep: Endpoint = {
    addresses: podAddresses(pod, addressType),
    conditions: { ready, serving, terminating },
  };
  if (shouldSetHostname(pod, service)) ep.hostname = pod.spec!.hostname;
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  const zone = node?.metadata?.labels?.[LabelTopologyZone];
  if (zone) ep.zone = zone;
  ep.targetRef = { kind: 'Pod', namespace: pod.metadata?.namespace, name: pod.metadata?.name, uid: pod.metadata?.uid };
  return ep;
}

/**
 * getAddressTypesForService: the service's ipFamilies; else the family of its clusterIP. Kubernetes then falls
 * back to both families for a headless Service the API server has not defaulted; in this single-stack IPv4
 * simulation (whose pods have IPv4 addresses only) that fallback is IPv4, as the API server's defaulting of
 * ipFamilies would make it — so the controller never depends on a clusterIP being allocated.
 */
export function getAddressTypesForService(service: Service): AddressType[] {
  const families = service.spec?.ipFamilies ?? [];
  if (families.length > 0) return [...new Set(families.map((f) => (f === 'IPv6' ? AddressType.IPv6 : AddressType.IPv4)))];
  const clusterIP = service.spec?.clusterIP;
  if (clusterIP && clusterIP !== 'None') return [isIPv6(clusterIP) ? AddressType.IPv6 : AddressType.IPv4];
  return [AddressType.IPv4];
}

const reservedLabels = new Set([LabelServiceName, LabelManagedBy, LabelHeadlessService]);

/**
 * setEndpointSliceLabels: the service's labels (reserved keys skipped), the headless label, then service-name and
 * managed-by; and whether the slice's copy of the service labels differs.
 */
export function setEndpointSliceLabels(slice: EndpointSlice | undefined, service: Service): { labels: Record<string, string>; changed: boolean } {
  const labels: Record<string, string> = {};
  const svcLabels: Record<string, string> = {};
  for (const [k, v] of Object.entries(service.metadata?.labels ?? {})) {
    if (reservedLabels.has(k)) continue;
    labels[k] = v;
    svcLabels[k] = v;
  }
  if (service.spec?.clusterIP === 'None') labels[LabelHeadlessService] = '';
  labels[LabelServiceName] = service.metadata?.name ?? '';
  labels[LabelManagedBy] = ControllerManagedBy;
  const current: Record<string, string> = {};
  for (const [k, v] of Object.entries(slice?.metadata?.labels ?? {})) if (!reservedLabels.has(k)) current[k] = v;
  const headlessWanted = service.spec?.clusterIP === 'None';
  const headlessHas = slice?.metadata?.labels?.[LabelHeadlessService] !== undefined;
  const changed = !sameMap(current, svcLabels) || headlessWanted !== headlessHas;
  return { labels, changed };
}

export function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ak = Object.keys(a ?? {});
  if (ak.length !== Object.keys(b ?? {}).length) return false;
  return ak.every((k) => (b ?? {})[k] === (a ?? {})[k]);
}

/** getEndpointSlicePrefix: "<service>-", or "slice-" when that is not a valid generateName. */
export function endpointSlicePrefix(serviceName: string): string {
  const prefix = `${serviceName}-`;
  return /^[a-z0-9]([-a-z0-9.]*)?$/.test(prefix) && prefix.length <= 253 - 5 ? prefix : 'slice-';
}

/** newEndpointSlice: an empty slice for the service, owned by it (generateName; the API server names it). */
export function newEndpointSlice(service: Service, ports: EndpointPort[], addressType: AddressType): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      generateName: endpointSlicePrefix(service.metadata?.name ?? ''),
      namespace: service.metadata?.namespace,
      labels: setEndpointSliceLabels(undefined, service).labels,
      ownerReferences: [newControllerRef({ metadata: service.metadata ?? {} } as never, { apiVersion: 'v1', kind: 'Service' })],
    },
    ports,
    addressType,
    endpoints: [],
  };
}

/** getSliceToFill: the slice the remaining endpoints fit into most tightly, if any. */
export function getSliceToFill(slices: readonly EndpointSlice[], numEndpoints: number, maxEndpoints: number): EndpointSlice | undefined {
  let closestDiff = maxEndpoints;
  let closest: EndpointSlice | undefined;
  for (const s of slices) {
    const diff = maxEndpoints - (numEndpoints + (s.endpoints ?? []).length);
    if (diff >= 0 && diff < closestDiff) {
      closestDiff = diff;
      closest = s;
      if (closestDiff === 0) return closest;
    }
  }
  return closest;
}

/** GetPodServiceMemberships: keys of the Services (with a selector) in the pod's namespace selecting it. */
export function getPodServiceMemberships(services: Lister<Service>, pod: Pod): Set<string> {
  const out = new Set<string>();
  const ns = pod.metadata?.namespace ?? '';
  for (const svc of services.listNamespace(ns)) {
    const sel = serviceSelector(svc);
    if (!sel) continue;
    if (selectorMatches(selectorFromSet(sel), pod.metadata?.labels)) out.add(`${ns}/${svc.metadata?.name}`);
  }
  return out;
}

/**
 * podEndpointsChanged: whether an update can change the pod's endpoints (labels, readiness, IPs, deletion,
 * hostname/subdomain, node, phase) — other updates are ignored.
 */
export function podEndpointsChanged(oldPod: Pod, newPod: Pod): { podChanged: boolean; labelsChanged: boolean } {
  const labelsChanged = !sameMap(oldPod.metadata?.labels, newPod.metadata?.labels);
  const podChanged =
    !!oldPod.metadata?.deletionTimestamp !== !!newPod.metadata?.deletionTimestamp ||
    isPodReady(oldPod) !== isPodReady(newPod) ||
    !samePodIPs(oldPod, newPod) ||
    oldPod.spec?.hostname !== newPod.spec?.hostname ||
    oldPod.spec?.subdomain !== newPod.spec?.subdomain ||
    oldPod.spec?.nodeName !== newPod.spec?.nodeName ||
    isPodTerminal(oldPod) !== isPodTerminal(newPod);
  return { podChanged, labelsChanged };
}

/** Whether status.podIP and the addresses of status.podIPs are the same (as their JSON would be). */
function samePodIPs(a: Pod, b: Pod): boolean {
  if ((a.status?.podIP ?? '') !== (b.status?.podIP ?? '')) return false;
  const x = a.status?.podIPs ?? [];
  const y = b.status?.podIPs ?? [];
  if (x === y) return true;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if ((x[i].ip ?? null) !== (y[i].ip ?? null)) return false;
  return true;
}

/** GetServicesToUpdateOnPodChange: the services of the new pod, plus those of the old one if labels changed. */
export function getServicesToUpdateOnPodChange(services: Lister<Service>, oldPod: Pod, newPod: Pod): Set<string> {
  if (oldPod.metadata?.resourceVersion === newPod.metadata?.resourceVersion) return new Set();
  const { podChanged, labelsChanged } = podEndpointsChanged(oldPod, newPod);
  if (!podChanged && !labelsChanged) return new Set();
  const keys = getPodServiceMemberships(services, newPod);
  if (labelsChanged) {
    const old = getPodServiceMemberships(services, oldPod);
    if (podChanged) for (const k of old) keys.add(k);
    else {
      // Only labels changed: the services the pod joined or left.
      const sym = new Set<string>();
      for (const k of keys) if (!old.has(k)) sym.add(k);
      for (const k of old) if (!keys.has(k)) sym.add(k);
      return sym;
    }
  }
  return keys;
}
