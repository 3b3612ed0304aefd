// The simulated data plane: cluster DNS, kube-proxy (iptables mode) and the pod network, over informers as the
// real node agents watch the API. request() follows one HTTP request from a pod (or from outside the cluster)
// hop by hop — DNS, LoadBalancer/NodePort/Ingress, the Service's ClusterIP, NetworkPolicy, the container — and
// answers what curl would get, synchronously on virtual time. Each request is one 'net.request' trace event.
import type { Namespace, Node, Pod, Service, ServicePort } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { Ingress, NetworkPolicy } from 'kubernetes-types/networking/v1';
import { TrafficHopKind, type TrafficHop, type TrafficParams, type TrafficResult } from '../../shared/protocol/network';
import { TraceKind, type TraceSink } from '../../shared/protocol/trace';
import type { Client } from '../client/client';
import { SharedInformerFactory } from '../informers/factory';
import { namespaceIndexers } from '../informers/indexer';
import type { ContainerProcess } from '../kubelet/pod-worker';
import type { Clock } from '../sim/clock';
import { createRng, type Rng } from '../sim/rng';
import { isIPv4, resolve, type DnsAnswer, type DnsLookup } from './dns';
import { routeIngress } from './ingress/route';
import { evaluateConnection } from './policy/evaluate';
import { listensOn, nginxErrorPage, serverResponse } from './responses';

/** How the data plane reaches a running container (the kubelet's runtime). */
export type ContainerLookup = (namespace: string, pod: string, container: string) => ContainerProcess | undefined;

export interface DataPlaneOptions {
  client: Client;
  clock: Clock;
  trace: TraceSink;
  containers: ContainerLookup;
  /** Seed of the data plane's own rng (kube-proxy's endpoint choice), so requests do not shift the cluster's stream. */
  seed: number;
}

/** Linux gives up on an unanswered SYN after ~127 s of retries; curl reports the connect failure then. */
export const connectTimeoutMs = 130_000;
const serviceNameLabel = 'kubernetes.io/service-name';

interface ParsedUrl {
  scheme: string;
  host: string;
  port: number;
  path: string;
}

export function parseUrl(url: string): ParsedUrl | undefined {
  const m = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):\/\/)?([^/:?#\s]+)(?::(\d+))?([/?][^#\s]*)?/.exec(url.trim());
  if (!m) return undefined;
  const scheme = (m[1] ?? 'http').toLowerCase();
  return { scheme, host: m[2], port: m[3] ? Number(m[3]) : scheme === 'https' ? 443 : 80, path: m[4] ? (m[4].startsWith('?') ? `/${m[4]}` : m[4]) : '/' };
}

/** Where a connection landed after DNS and the node's NAT rules. */
type Failure = { error: 'refused' | 'timeout' | 'resolve' | 'empty'; detail?: string };

interface Outcome {
  result?: { status: number; reason: string; headers: Record<string, string>; body: string };
  failure?: Failure;
}

export class DataPlane {
  private readonly informers: SharedInformerFactory;
  private readonly rng: Rng;
  private readonly clock: Clock;
  private readonly trace: TraceSink;
  private readonly containers: ContainerLookup;
  /** sessionAffinity ClientIP: service key + client IP → endpoint IP. */
  private readonly affinity = new Map<string, string>();

  constructor(options: DataPlaneOptions) {
    this.clock = options.clock;
    this.trace = options.trace;
    this.containers = options.containers;
    this.rng = createRng(options.seed);
    // Its listers are read whole, never by owner or node.
    this.informers = new SharedInformerFactory({ client: options.client, clock: options.clock, baseIndexers: namespaceIndexers });
    // Request every informer now, so start() lists and watches them all.
    [this.pods, this.services, this.slices, this.namespaces, this.policies, this.ingresses, this.nodes].forEach((i) => i.name);
  }

  private get pods() {
    return this.informers.pods;
  }
  private get services() {
    return this.informers.services;
  }
  private get slices() {
    return this.informers.endpointSlices;
  }
  private get namespaces() {
    return this.informers.namespaces;
  }
  private get policies() {
    return this.informers.networkPolicies;
  }
  private get ingresses() {
    return this.informers.ingresses;
  }
  private get nodes() {
    return this.informers.nodes;
  }

  start(): void {
    this.informers.start();
  }

  stop(): void {
    this.informers.shutdown();
  }

  hasSynced(): boolean {
    return this.informers.hasSynced();
  }

  // ------------------------------------------------------------------ listers

  private service(namespace: string, name: string): Service | undefined {
    return this.services.indexer.get(`${namespace}/${name}`) as Service | undefined;
  }

  private servicesAll(): Service[] {
    return this.services.indexer.list() as Service[];
  }

  private endpointSlices(namespace: string, service: string): EndpointSlice[] {
    return (this.slices.indexer.list() as EndpointSlice[]).filter(
      (s) => s.metadata?.namespace === namespace && s.metadata?.labels?.[serviceNameLabel] === service,
    );
  }

  private pod(namespace: string, name: string): Pod | undefined {
    return this.pods.indexer.get(`${namespace}/${name}`) as Pod | undefined;
  }

  private podByIP(ip: string): Pod | undefined {
    return (this.pods.indexer.list() as Pod[]).find(
      (p) => p.status?.podIP === ip && !p.spec?.hostNetwork && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
    );
  }

  private namespace(name: string): Namespace | undefined {
    return this.namespaces.indexer.get(name) as Namespace | undefined;
  }

  private policiesIn(namespace: string): NetworkPolicy[] {
    return (this.policies.indexer.list() as NetworkPolicy[]).filter((p) => p.metadata?.namespace === namespace);
  }

  private nodeIPs(): Map<string, string> {
    const out = new Map<string, string>();
    for (const n of this.nodes.indexer.list() as Node[]) {
      for (const a of n.status?.addresses ?? []) if (a.type === 'InternalIP' || a.type === 'ExternalIP') out.set(a.address, n.metadata!.name!);
    }
    return out;
  }

  /** The lookups cluster DNS answers from. */
  dnsLookup(): DnsLookup {
    return {
      service: (ns, name) => this.service(ns, name),
      endpointSlices: (ns, svc) => this.endpointSlices(ns, svc),
      namespaceExists: (name) => this.namespace(name) !== undefined,
    };
  }

  /** A DNS query as a pod in namespace (search path) makes it. */
  lookup(name: string, namespace: string): DnsAnswer {
    return resolve(name, namespace, this.dnsLookup());
  }

  // ------------------------------------------------------------------ a request

  /** Sends one HTTP request through the simulated network and records it as a 'net.request' trace event. */
  request(params: TrafficParams): TrafficResult {
    const hops: TrafficHop[] = [];
    const result = this.route(params, hops);
    const traceSeq = this.trace.emit({
      kind: TraceKind.NetRequest,
      component: 'kube-proxy',
      data: {
        ...params,
        ok: result.ok,
        status: result.status,
        error: result.error,
        durationMs: result.durationMs,
        hops: hops.map((h) => ({ ...h })),
      },
    });
    return { ...result, traceSeq };
  }

  private route(params: TrafficParams, hops: TrafficHop[]): TrafficResult {
    const url = parseUrl(params.url);
    const method = (params.method ?? 'GET').toUpperCase();
    if (!url) return { ok: false, error: `curl: (3) URL rejected: Malformed input to a URL function`, hops, durationMs: 0 };
    let source: Pod | undefined;
    if ('pod' in params.from) {
      source = this.pod(params.from.pod.namespace, params.from.pod.name);
      if (!source) return { ok: false, error: `pods "${params.from.pod.name}" not found`, hops, durationMs: 0 };
    }
    const sourceIP = source?.status?.podIP ?? '203.0.113.10';
    const display = url.host;

    // DNS
    const answer = resolve(url.host, source?.metadata?.namespace, this.dnsLookup());
    if (!answer.found) {
      hops.push({
        kind: TrafficHopKind.Dns,
        detail: answer.cname
          ? `${url.host} is a CNAME for ${answer.cname}, which does not resolve (the simulated cluster is offline)`
          : `${url.host}: NXDOMAIN${source ? '' : ' (outside the cluster, cluster DNS names do not resolve)'}`,
        ok: false,
      });
      return this.fail(url, display, { error: 'resolve' }, hops, 5);
    }
    let ip = answer.addresses[0];
    if (!isIPv4(url.host)) {
      const svc = answer.service;
      hops.push({
        kind: TrafficHopKind.Dns,
        detail: `${answer.fqdn}${answer.cname ? ` (CNAME ${answer.cname})` : ''} → ${answer.addresses.join(', ')}`,
        object: svc ? { kind: 'Service', namespace: svc.namespace, name: svc.name } : undefined,
        ok: true,
      });
      if (answer.addresses.length > 1) ip = answer.addresses[this.rng.int(answer.addresses.length)];
    }
    const outcome = this.connect({ ip, port: url.port, path: url.path, method, host: params.host ?? url.host, source, sourceIP }, hops);
    if (outcome.failure) return this.fail(url, display, outcome.failure, hops, outcome.failure.error === 'timeout' ? connectTimeoutMs : 1);
    const r = outcome.result!;
    return { ok: true, status: r.status, headers: { ...r.headers }, body: method === 'HEAD' ? '' : r.body, hops, durationMs: 2 + hops.length };
  }

  private fail(url: ParsedUrl, display: string, failure: Failure, hops: TrafficHop[], durationMs: number): TrafficResult {
    const error =
      failure.error === 'resolve'
        ? `curl: (6) Could not resolve host: ${display}`
        : failure.error === 'refused'
          ? `curl: (7) Failed to connect to ${display} port ${url.port} after ${durationMs} ms: Couldn't connect to server`
          : failure.error === 'empty'
            ? 'curl: (52) Empty reply from server'
            : `curl: (28) Failed to connect to ${display} port ${url.port} after ${durationMs} ms: Couldn't connect to server`;
    return { ok: false, error, hops, durationMs };
  }

  /** The packet to ip:port after DNS: NAT by kube-proxy's rules, or straight to a pod. */
  private connect(
    req: { ip: string; port: number; path: string; method: string; host: string; source?: Pod; sourceIP: string },
    hops: TrafficHop[],
  ): Outcome {
    const services = this.servicesAll();
    // A ClusterIP (reachable from pods and nodes only).
    const byClusterIP = services.find((s) => s.spec?.clusterIP === req.ip && s.spec.clusterIP !== 'None');
    if (byClusterIP) {
      if (!req.source) {
        hops.push({ kind: TrafficHopKind.Service, detail: `${req.ip} is a ClusterIP: not routable from outside the cluster`, object: ref(byClusterIP), ok: false });
        return { failure: { error: 'timeout' } };
      }
      const port = byClusterIP.spec?.ports?.find((p) => p.port === req.port && (p.protocol ?? 'TCP') === 'TCP');
      if (!port) {
        hops.push({ kind: TrafficHopKind.Service, detail: `Service ${name(byClusterIP)} has no port ${req.port}: kube-proxy has no rule for ${req.ip}:${req.port}`, object: ref(byClusterIP), ok: false });
        return { failure: { error: 'timeout' } };
      }
      return this.toService(byClusterIP, port, req, hops);
    }
    // A LoadBalancer's external IP.
    for (const s of services) {
      if (!(s.status?.loadBalancer?.ingress ?? []).some((i) => i.ip === req.ip)) continue;
      const port = s.spec?.ports?.find((p) => p.port === req.port && (p.protocol ?? 'TCP') === 'TCP');
      if (!port) continue;
      hops.push({ kind: TrafficHopKind.LoadBalancer, detail: `load balancer ${req.ip}:${req.port} → node port ${port.nodePort ?? port.port}`, object: ref(s), ok: true });
      return this.toService(s, port, req, hops);
    }
    // An Ingress controller's address.
    const ingresses = (this.ingresses.indexer.list() as Ingress[]).filter((i) => (i.status?.loadBalancer?.ingress ?? []).some((x) => x.ip === req.ip));
    if (ingresses.length > 0 && (req.port === 80 || req.port === 443)) return this.toIngress(ingresses, req, hops);
    // A node: NodePorts.
    const node = this.nodeIPs().get(req.ip);
    if (node !== undefined) {
      for (const s of services) {
        if (s.spec?.type !== 'NodePort' && s.spec?.type !== 'LoadBalancer') continue;
        const port = s.spec.ports?.find((p) => p.nodePort === req.port && (p.protocol ?? 'TCP') === 'TCP');
        if (!port) continue;
        hops.push({ kind: TrafficHopKind.NodePort, detail: `${node} (${req.ip}) port ${req.port} → Service ${name(s)} port ${port.port}`, object: ref(s), ok: true });
        return this.toService(s, port, req, hops);
      }
      hops.push({ kind: TrafficHopKind.NodePort, detail: `nothing listens on ${node} (${req.ip}) port ${req.port}`, object: { kind: 'Node', name: node }, ok: false });
      return { failure: { error: 'refused' } };
    }
    // A pod IP (the pod network is flat).
    const pod = this.podByIP(req.ip);
    if (pod) return this.toPod(pod, req.port, req, hops);
    hops.push({ kind: TrafficHopKind.Pod, detail: `no route to ${req.ip}`, ok: false });
    return { failure: { error: 'timeout' } };
  }

  private toIngress(ingresses: Ingress[], req: Parameters<DataPlane['connect']>[0], hops: TrafficHop[]): Outcome {
    const host = req.host.replace(/:\d+$/, '');
    const route = routeIngress(ingresses, { host, path: req.path.split('?')[0] });
    if (!route) {
      hops.push({ kind: TrafficHopKind.Ingress, detail: `no Ingress rule matches host ${JSON.stringify(host)} path ${req.path}: default backend 404`, ok: false });
      return { result: ingressError(404, 'Not Found') };
    }
    const ns = route.ingress.metadata?.namespace ?? 'default';
    const backend = route.backend.service;
    const svc = backend ? this.service(ns, backend.name) : undefined;
    const port = svc?.spec?.ports?.find((p) => (backend?.port?.number !== undefined ? p.port === backend.port.number : p.name === backend?.port?.name));
    hops.push({
      kind: TrafficHopKind.Ingress,
      detail: `Ingress ${ns}/${route.ingress.metadata?.name} host ${JSON.stringify(route.host || '*')} path ${JSON.stringify(route.path || '(default backend)')} → Service ${backend?.name ?? '?'}`,
      object: { kind: 'Ingress', namespace: ns, name: route.ingress.metadata?.name ?? '' },
      ok: !!(svc && port),
    });
    if (!svc || !port) return { result: ingressError(503, 'Service Temporarily Unavailable') };
    const outcome = this.toService(svc, port, { ...req, source: undefined }, hops);
    // ingress-nginx answers 502/503 itself when the backend cannot be reached.
    if (outcome.failure) return { result: ingressError(outcome.failure.error === 'refused' ? 503 : 504, outcome.failure.error === 'refused' ? 'Service Temporarily Unavailable' : 'Gateway Time-out') };
    return outcome;
  }

  /** kube-proxy: one ready endpoint of the Service port (REJECT when there is none). */
  private toService(svc: Service, port: ServicePort, req: Parameters<DataPlane['connect']>[0], hops: TrafficHop[]): Outcome {
    const ns = svc.metadata?.namespace ?? 'default';
    const svcName = svc.metadata?.name ?? '';
    const candidates: { ip: string; port: number; pod?: string }[] = [];
    for (const slice of this.endpointSlices(ns, svcName)) {
      if (slice.addressType !== 'IPv4') continue;
      const slicePort = (slice.ports ?? []).find((p) => (p.name ?? '') === (port.name ?? ''));
      if (!slicePort?.port) continue;
      for (const ep of slice.endpoints ?? []) {
        if (ep.conditions?.ready === false) continue;
        for (const ip of ep.addresses ?? []) candidates.push({ ip, port: slicePort.port, pod: ep.targetRef?.kind === 'Pod' ? ep.targetRef.name : undefined });
      }
    }
    if (candidates.length === 0) {
      hops.push({ kind: TrafficHopKind.Service, detail: `Service ${ns}/${svcName} has no ready endpoints: kube-proxy rejects the connection`, object: ref(svc), ok: false });
      return { failure: { error: 'refused' } };
    }
    candidates.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : a.port - b.port));
    let chosen: (typeof candidates)[number] | undefined;
    const affinityKey = `${ns}/${svcName}:${port.port}/${req.sourceIP}`;
    if (svc.spec?.sessionAffinity === 'ClientIP') chosen = candidates.find((c) => c.ip === this.affinity.get(affinityKey));
    chosen ??= candidates[this.rng.int(candidates.length)];
    if (svc.spec?.sessionAffinity === 'ClientIP') this.affinity.set(affinityKey, chosen.ip);
    hops.push({
      kind: TrafficHopKind.Service,
      detail: `kube-proxy chose ${chosen.ip}:${chosen.port}${chosen.pod ? ` (${chosen.pod})` : ''} of ${candidates.length} ready endpoint${candidates.length === 1 ? '' : 's'}`,
      object: ref(svc),
      ok: true,
    });
    const pod = (chosen.pod ? this.pod(ns, chosen.pod) : undefined) ?? this.podByIP(chosen.ip);
    if (!pod) {
      hops.push({ kind: TrafficHopKind.Pod, detail: `no pod has ${chosen.ip}`, ok: false });
      return { failure: { error: 'timeout' } };
    }
    return this.toPod(pod, chosen.port, req, hops);
  }

  /** The destination pod: NetworkPolicy, then the container listening on the port. */
  private toPod(pod: Pod, port: number, req: Parameters<DataPlane['connect']>[0], hops: TrafficHop[]): Outcome {
    const ns = pod.metadata?.namespace ?? 'default';
    const podName = pod.metadata?.name ?? '';
    const podRef = { kind: 'Pod', namespace: ns, name: podName };
    const dropped = this.policyDrops(pod, port, req, hops);
    if (dropped) return { failure: { error: 'timeout' } };
    const now = this.clock.now();
    for (const c of pod.spec?.containers ?? []) {
      const proc = this.containers(ns, podName, c.name);
      if (!proc || !listensOn(proc, port, now)) continue;
      const answer = serverResponse(proc, { method: req.method, path: req.path, podName, now });
      if ('notHttp' in answer) {
        hops.push({ kind: TrafficHopKind.Pod, detail: `${podName}/${c.name} accepted ${pod.status?.podIP}:${port} but does not speak HTTP`, object: podRef, ok: false });
        return { failure: { error: 'empty' } };
      }
      hops.push({ kind: TrafficHopKind.Pod, detail: `${podName}/${c.name} answered ${answer.http.status} ${answer.http.reason} on port ${port}`, object: podRef, ok: true });
      return { result: answer.http };
    }
    hops.push({ kind: TrafficHopKind.Pod, detail: `nothing in ${podName} listens on ${pod.status?.podIP}:${port}: connection refused`, object: podRef, ok: false });
    return { failure: { error: 'refused' } };
  }

  /** NetworkPolicy, only consulted when the source or destination namespace has policies. */
  private policyDrops(pod: Pod, port: number, req: Parameters<DataPlane['connect']>[0], hops: TrafficHop[]): boolean {
    const dstNs = pod.metadata?.namespace ?? 'default';
    const srcNs = req.source?.metadata?.namespace;
    if (this.policiesIn(dstNs).length === 0 && (srcNs === undefined || this.policiesIn(srcNs).length === 0)) return false;
    const verdict = evaluateConnection(
      {
        source: { pod: req.source, namespace: srcNs ? this.namespace(srcNs) : undefined, ip: req.sourceIP },
        destination: { pod, namespace: this.namespace(dstNs), ip: pod.status?.podIP ?? '' },
        port,
        protocol: 'TCP',
      },
      { policiesIn: (ns) => this.policiesIn(ns), namespaces: () => this.namespaces.indexer.list() as Namespace[] },
    );
    for (const v of [verdict.egress, verdict.ingress]) {
      if (v.policies.length === 0 && v.allowed) continue;
      hops.push({ kind: TrafficHopKind.NetworkPolicy, detail: v.reason, object: v.policies.length ? policyRef(v.policies[0]) : undefined, ok: v.allowed });
    }
    return !(verdict.egress.allowed && verdict.ingress.allowed);
  }
}

function ref(s: Service) {
  return { kind: 'Service', namespace: s.metadata?.namespace, name: s.metadata?.name ?? '' };
}

function name(s: Service): string {
  return `${s.metadata?.namespace}/${s.metadata?.name}`;
}

function policyRef(key: string) {
  const [namespace, n] = key.split('/');
  return { kind: 'NetworkPolicy', namespace, name: n };
}

/** ingress-nginx's own answer when no rule matches or the backend cannot be reached. */
function ingressError(status: number, reason: string) {
  const body = nginxErrorPage(status, reason);
  return { status, reason, headers: { Server: 'nginx', 'Content-Type': 'text/html', 'Content-Length': String(body.length) }, body };
}
