// The Endpoints helpers of pkg/api/v1/endpoints (RepackSubsets, SortSubsets) and pkg/controller/endpoint
// (addEndpointSubset, truncateEndpoints, capacityAnnotationSetCorrectly).
//
//   one subset per (pod, port) → RepackSubsets → one subset per group of addresses offering the same ports:
//   [{10.244.1.2 :80}, {10.244.2.2 :80}, {10.244.3.2 (not ready) :80}]
//     → [{addresses: [10.244.1.2, 10.244.2.2], notReadyAddresses: [10.244.3.2], ports: [80]}]
import type { EndpointAddress, EndpointPort, EndpointSubset } from 'kubernetes-types/core/v1';
import { canonicalJson } from '../shared/controller-utils';

/** maxCapacity: the most addresses an Endpoints object holds; more are truncated. */
export const MaxEndpointsCapacity = 1000;
/** v1.EndpointsOverCapacity and its value. */
export const AnnotationEndpointsOverCapacity = 'endpoints.kubernetes.io/over-capacity';
export const OverCapacityTruncated = 'truncated';

/** addEndpointSubset: one subset for the address, ready (or tolerated) or not ready. */
export function addEndpointSubset(subsets: EndpointSubset[], address: EndpointAddress, port: EndpointPort | undefined, ready: boolean): void {
  const ports = port ? [port] : [];
  if (ready) subsets.push({ addresses: [address], ports });
  else subsets.push({ notReadyAddresses: [address], ports });
}

function addressKey(a: EndpointAddress): string {
  return `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
}

/** LessEndpointAddress: by IP, then target uid. */
function compareAddresses(a: EndpointAddress, b: EndpointAddress): number {
  if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
  const ua = a.targetRef?.uid ?? '';
  const ub = b.targetRef?.uid ?? '';
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

function compareCanonical(a: unknown, b: unknown): number {
  const ja = canonicalJson(a);
  const jb = canonicalJson(b);
  return ja < jb ? -1 : ja > jb ? 1 : 0;
}

/**
 * RepackSubsets: groups addresses by the ports they offer. An address both ready and not ready for a port is
 * not ready ("not ready always trumps ready"); subsets without ports are kept (a headless service's).
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  const allAddrs = new Map<string, EndpointAddress>();
  // port (canonical) → address key → ready
  const portToAddrReady = new Map<string, { port: EndpointPort | undefined; addrs: Map<string, boolean> }>();
  const mapAddress = (addr: EndpointAddress, port: EndpointPort | undefined, ready: boolean): void => {
    const key = addressKey(addr);
    if (!allAddrs.has(key)) allAddrs.set(key, { ...addr });
    const pk = port ? canonicalJson(port) : 'sentinel';
    let entry = portToAddrReady.get(pk);
    if (!entry) portToAddrReady.set(pk, (entry = { port, addrs: new Map() }));
    const was = entry.addrs.get(key);
    if (was === undefined || was) entry.addrs.set(key, ready);
  };
  for (const s of subsets) {
    const ports = s.ports && s.ports.length > 0 ? s.ports : [undefined];
    for (const port of ports) {
      for (const a of s.addresses ?? []) mapAddress(a, port, true);
      for (const a of s.notReadyAddresses ?? []) mapAddress(a, port, false);
    }
  }
  // Address sets (with their readiness) → the ports offered by exactly that set.
  const groups = new Map<string, { addrs: Map<string, boolean>; ports: EndpointPort[] }>();
  for (const { port, addrs } of portToAddrReady.values()) {
    const setKey = JSON.stringify([...addrs.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
    let g = groups.get(setKey);
    if (!g) groups.set(setKey, (g = { addrs, ports: [] }));
    if (port) g.ports.push(port);
  }
  const out: EndpointSubset[] = [];
  for (const g of groups.values()) {
    const ready: EndpointAddress[] = [];
    const notReady: EndpointAddress[] = [];
    for (const [key, isReady] of g.addrs) (isReady ? ready : notReady).push(allAddrs.get(key)!);
    const subset: EndpointSubset = {};
    if (ready.length > 0) subset.addresses = ready.sort(compareAddresses);
    if (notReady.length > 0) subset.notReadyAddresses = notReady.sort(compareAddresses);
    if (g.ports.length > 0) subset.ports = g.ports.sort(compareCanonical);
    out.push(subset);
  }
  return out.sort(compareCanonical);
}

function totalAddresses(subsets: readonly EndpointSubset[] | undefined): { ready: number; notReady: number } {
  let ready = 0;
  let notReady = 0;
  for (const s of subsets ?? []) {
    ready += (s.addresses ?? []).length;
    notReady += (s.notReadyAddresses ?? []).length;
  }
  return { ready, notReady };
}

/**
 * truncateEndpoints: caps the subsets at 1000 addresses, each subset keeping its proportional share (rounded
 * up). Not-ready addresses go first; only if the ready ones alone exceed the cap are they truncated too.
 * Returns whether anything was truncated.
 */
export function truncateEndpoints(subsets: EndpointSubset[]): boolean {
  const { ready: totalReady, notReady: totalNotReady } = totalAddresses(subsets);
  if (totalReady + totalNotReady <= MaxEndpointsCapacity) return false;
  let truncateReady = false;
  let max = MaxEndpointsCapacity - totalReady;
  let numTotal = totalNotReady;
  if (totalReady > MaxEndpointsCapacity) {
    truncateReady = true;
    max = MaxEndpointsCapacity;
    numTotal = totalReady;
  }
  let canBeAdded = max;
  for (let i = 0; i < subsets.length; i++) {
    const s = { ...subsets[i] };
    const numInSubset = truncateReady ? (s.addresses ?? []).length : (s.notReadyAddresses ?? []).length;
    let toBeAdded = Math.ceil((numInSubset / numTotal) * max);
    if (toBeAdded > canBeAdded) toBeAdded = canBeAdded;
    if (truncateReady) {
      s.addresses = (s.addresses ?? []).slice(0, toBeAdded);
      s.notReadyAddresses = [];
      canBeAdded -= s.addresses.length;
    } else {
      s.notReadyAddresses = (s.notReadyAddresses ?? []).slice(0, toBeAdded);
      canBeAdded -= s.notReadyAddresses.length;
    }
    subsets[i] = s;
  }
  return true;
}

/** capacityAnnotationSetCorrectly: within capacity and without the over-capacity annotation. */
export function capacityAnnotationSetCorrectly(annotations: Record<string, string> | undefined, subsets: readonly EndpointSubset[] | undefined): boolean {
  const { ready, notReady } = totalAddresses(subsets);
  if (ready + notReady > MaxEndpointsCapacity) return false;
  return annotations?.[AnnotationEndpointsOverCapacity] === undefined;
}

/** endpointSubsetsEqualIgnoreResourceVersion, on normalized subsets (empty lists and absent fields alike). */
export function subsetsEqual(a: readonly EndpointSubset[] | undefined, b: readonly EndpointSubset[] | undefined): boolean {
  return canonicalJson(normalizeSubsets(a)) === canonicalJson(normalizeSubsets(b));
}

function normalizeSubsets(subsets: readonly EndpointSubset[] | undefined): unknown {
  const addr = (a: EndpointAddress) => ({
    ip: a.ip,
    hostname: a.hostname ?? '',
    nodeName: a.nodeName ?? '',
    targetRef: a.targetRef ? { kind: a.targetRef.kind ?? '', namespace: a.targetRef.namespace ?? '', name: a.targetRef.name ?? '', uid: a.targetRef.uid ?? '' } : null,
  });
  return (subsets ?? []).map((s) => ({
    addresses: (s.addresses ?? []).map(addr),
    notReadyAddresses: (s.notReadyAddresses ?? []).map(addr),
    ports: (s.ports ?? []).map((p) => ({ name: p.name ?? '', port: p.port, protocol: p.protocol ?? 'TCP', appProtocol: p.appProtocol ?? '' })),
  }));
}
