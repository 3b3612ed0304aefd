// Cluster DNS as CoreDNS's kubernetes plugin answers it (cluster domain cluster.local, "pods insecure"):
//   <svc>.<ns>.svc.cluster.local          ClusterIP → its IP; headless → the ready endpoints' IPs; ExternalName → CNAME
//   <hostname>.<svc>.<ns>.svc.cluster.local  an endpoint with a hostname (StatefulSet pods of a headless Service)
//   1-2-3-4.<ns>.pod.cluster.local         → 1.2.3.4
// A pod's resolv.conf searches <ns>.svc.cluster.local, svc.cluster.local and cluster.local with ndots:5, so
// "web", "web.default" and "web.default.svc" all reach the Service. Nothing outside the cluster resolves: the
// simulation is offline.
import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';

export const clusterDomain = 'cluster.local';
/** kube-dns's ClusterIP (kubeadm's default service CIDR 10.96.0.0/12, tenth address). */
export const clusterDnsIP = '10.96.0.10';

export interface DnsLookup {
  service(namespace: string, name: string): Service | undefined;
  /** The EndpointSlices of a Service (label kubernetes.io/service-name). */
  endpointSlices(namespace: string, service: string): readonly EndpointSlice[];
  namespaceExists(name: string): boolean;
}

export type DnsAnswer =
  | {
      found: true;
      /** The fully qualified name that answered (after the search path). */
      fqdn: string;
      addresses: string[];
      /** The CNAME chain followed (ExternalName). */
      cname?: string;
      service?: { namespace: string; name: string };
      /** For the reverse names nslookup prints: ip → its PTR name. */
      ptr: Record<string, string>;
    }
  | {
      found: false;
      /** The names tried, in order. */
      tried: string[];
      /** A CNAME that pointed outside the cluster (ExternalName). */
      cname?: string;
    };

const ipv4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export function isIPv4(s: string): boolean {
  const m = ipv4.exec(s);
  return !!m && m.slice(1).every((p) => Number(p) <= 255);
}

/** The search path of a pod's /etc/resolv.conf (dnsPolicy ClusterFirst). */
export function searchPath(namespace: string): string[] {
  return [`${namespace}.svc.${clusterDomain}`, `svc.${clusterDomain}`, clusterDomain];
}

/** The names the resolver tries for name, in order (ndots:5; a trailing dot is absolute). */
export function candidates(name: string, search: readonly string[]): string[] {
  if (name.endsWith('.')) return [name.slice(0, -1)];
  const dots = name.split('.').length - 1;
  const searched = search.map((s) => `${name}.${s}`);
  return dots >= 5 ? [name, ...searched] : [...searched, name];
}

/** Resolves name from a pod in namespace (search path), or from outside the cluster (namespace undefined: only IPs). */
export function resolve(name: string, namespace: string | undefined, lookup: DnsLookup): DnsAnswer {
  const host = name.toLowerCase();
  if (isIPv4(host)) return { found: true, fqdn: host, addresses: [host], ptr: {} };
  if (namespace === undefined) return { found: false, tried: [host] };
  const tried = candidates(host, searchPath(namespace));
  for (const fqdn of tried) {
    const answer = lookupName(fqdn, lookup, 0);
    if (answer) return answer;
  }
  return { found: false, tried };
}

/** One exact name against the cluster zone; undefined is NXDOMAIN. */
function lookupName(fqdn: string, lookup: DnsLookup, depth: number): DnsAnswer | undefined {
  const suffix = `.${clusterDomain}`;
  if (!fqdn.endsWith(suffix)) return undefined;
  const labels = fqdn.slice(0, -suffix.length).split('.');
  // <a-b-c-d>.<ns>.pod
  if (labels.length === 3 && labels[2] === 'pod') {
    const ip = labels[0].replace(/-/g, '.');
    if (!isIPv4(ip) || !lookup.namespaceExists(labels[1])) return undefined;
    return { found: true, fqdn, addresses: [ip], ptr: {} };
  }
  if (labels[labels.length - 1] !== 'svc') return undefined;
  if (labels.length === 3) return serviceRecord(fqdn, labels[1], labels[0], lookup, depth);
  if (labels.length === 4) {
    const [hostname, svc, ns] = labels;
    const service = lookup.service(ns, svc);
    if (!service || service.spec?.clusterIP !== 'None') return undefined;
    const ips = endpointAddresses(lookup.endpointSlices(ns, svc), service, hostname);
    if (ips.length === 0) return undefined;
    return { found: true, fqdn, addresses: ips, service: { namespace: ns, name: svc }, ptr: Object.fromEntries(ips.map((ip) => [ip, fqdn])) };
  }
  return undefined;
}

function serviceRecord(fqdn: string, namespace: string, name: string, lookup: DnsLookup, depth: number): DnsAnswer | undefined {
  const service = lookup.service(namespace, name);
  if (!service) return undefined;
  const spec = service.spec ?? {};
  const ref = { namespace, name };
  if (spec.type === 'ExternalName') {
    const target = (spec.externalName ?? '').replace(/\.$/, '').toLowerCase();
    const next = depth < 8 ? lookupName(target, lookup, depth + 1) : undefined;
    if (next?.found) return { ...next, fqdn, cname: target, service: ref };
    return { found: false, tried: [fqdn], cname: target };
  }
  if (spec.clusterIP && spec.clusterIP !== 'None') {
    return { found: true, fqdn, addresses: [spec.clusterIP], service: ref, ptr: { [spec.clusterIP]: fqdn } };
  }
  // Headless: one A record per ready endpoint (all of them with publishNotReadyAddresses).
  const slices = lookup.endpointSlices(namespace, name);
  const ips = endpointAddresses(slices, service);
  if (ips.length === 0) return undefined;
  const ptr: Record<string, string> = {};
  for (const slice of slices) {
    for (const ep of slice.endpoints ?? []) {
      for (const ip of ep.addresses ?? []) ptr[ip] = `${ep.hostname ?? ip.replace(/\./g, '-')}.${fqdn}`;
    }
  }
  return { found: true, fqdn, addresses: ips, service: ref, ptr };
}

/** The addresses CoreDNS publishes for a headless Service (optionally only the endpoint with that hostname). */
function endpointAddresses(slices: readonly EndpointSlice[], service: Service, hostname?: string): string[] {
  const all = service.spec?.publishNotReadyAddresses === true;
  const out: string[] = [];
  for (const slice of slices) {
    if (slice.addressType !== 'IPv4') continue;
    for (const ep of slice.endpoints ?? []) {
      if (!all && ep.conditions?.ready === false) continue;
      if (hostname !== undefined && ep.hostname !== hostname) continue;
      for (const ip of ep.addresses ?? []) if (!out.includes(ip)) out.push(ip);
    }
  }
  return out.sort(compareIPs);
}

export function compareIPs(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 4; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}
