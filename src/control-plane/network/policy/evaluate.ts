// CONTRACT (lead): NetworkPolicy evaluation for one connection, as a CNI plugin that enforces policies decides it.
// The owner replaces the body; the signature is what the traffic simulation calls.
//
// networking.k8s.io/v1 semantics: a pod is isolated in a direction when any policy of its namespace selects it and
// lists that policyType; then a connection passes only if some rule of some such policy allows it (rules are a union).
// Egress is judged at the source pod with the destination as peer, ingress at the destination pod with the source as
// peer. Ports are the pod's port (after kube-proxy's DNAT), so named ports resolve on the destination pod.
import type { Namespace, Pod } from 'kubernetes-types/core/v1';
import type { NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from 'kubernetes-types/networking/v1';
import { labelSelectorMatches } from '../../../shared/lib/labels';
import { cidrContains } from './cidr';

/** One end of a connection: a pod (with its namespace object) or an address outside every pod network. */
export interface PolicyPeer {
  pod?: Pod;
  namespace?: Namespace;
  ip: string;
}

export interface ConnectionSpec {
  source: PolicyPeer;
  destination: PolicyPeer;
  port: number;
  protocol: 'TCP' | 'UDP' | 'SCTP';
}

export interface PolicyVerdict {
  allowed: boolean;
  /** "<namespace>/<name>" of the policies that selected the pod in this direction (empty: not isolated). */
  policies: string[];
  /** One sentence for the page: why allowed or dropped. */
  reason: string;
}

export interface PolicyLookup {
  /** The NetworkPolicies of a namespace. */
  policiesIn(namespace: string): readonly NetworkPolicy[];
  /** Namespace objects, for namespaceSelector. */
  namespaces(): readonly Namespace[];
}

const Direction = { Ingress: 'Ingress', Egress: 'Egress' } as const;
type Direction = (typeof Direction)[keyof typeof Direction];

/** Egress is judged at the source pod, ingress at the destination pod; the connection passes only if both allow it. */
export function evaluateConnection(connection: ConnectionSpec, lookup: PolicyLookup): { egress: PolicyVerdict; ingress: PolicyVerdict } {
  return {
    egress: judge(Direction.Egress, connection.source, connection.destination, connection, lookup),
    ingress: judge(Direction.Ingress, connection.destination, connection.source, connection, lookup),
  };
}

/** The policyTypes in effect: SetDefaults_NetworkPolicy gives Ingress always and Egress when egress rules exist. */
export function effectivePolicyTypes(policy: NetworkPolicy): Direction[] {
  const listed = policy.spec?.policyTypes ?? [];
  if (listed.length > 0) return listed.filter((t): t is Direction => t === Direction.Ingress || t === Direction.Egress);
  return (policy.spec?.egress ?? []).length > 0 ? [Direction.Ingress, Direction.Egress] : [Direction.Ingress];
}

function judge(direction: Direction, subject: PolicyPeer, peer: PolicyPeer, connection: ConnectionSpec, lookup: PolicyLookup): PolicyVerdict {
  const word = direction === Direction.Ingress ? 'ingress' : 'egress';
  const pod = subject.pod;
  if (!pod) return { allowed: true, policies: [], reason: `${describePeer(subject)} is outside the pod network: no NetworkPolicy applies to its ${word}.` };
  const namespace = namespaceOf(pod);
  const selecting = lookup
    .policiesIn(namespace)
    .filter((p) => effectivePolicyTypes(p).includes(direction) && labelSelectorMatches(p.spec?.podSelector ?? {}, pod.metadata?.labels));
  const podName = `${namespace}/${pod.metadata?.name ?? ''}`;
  if (selecting.length === 0) {
    return { allowed: true, policies: [], reason: `Pod ${podName} is not isolated for ${word}: no NetworkPolicy with policyType ${direction} selects it.` };
  }
  const policies = selecting.map((p) => `${p.metadata?.namespace ?? namespace}/${p.metadata?.name ?? ''}`);
  const portText = `${connection.protocol}/${connection.port}`;
  const peerText = direction === Direction.Ingress ? `from ${describePeer(peer)}` : `to ${describePeer(peer)}`;
  // The pod whose containerPorts name the port: the destination, whichever side is being judged.
  const destinationPod = direction === Direction.Ingress ? pod : peer.pod;
  for (const policy of selecting) {
    const rules = direction === Direction.Ingress ? (policy.spec?.ingress ?? []).map((r) => ({ peers: r.from, ports: r.ports })) : (policy.spec?.egress ?? []).map((r) => ({ peers: r.to, ports: r.ports }));
    for (const rule of rules) {
      if (!portsMatch(rule.ports, connection, destinationPod)) continue;
      if (!peersMatch(rule.peers, peer, namespaceOfPolicy(policy, namespace), lookup)) continue;
      const name = `${policy.metadata?.namespace ?? namespace}/${policy.metadata?.name ?? ''}`;
      return { allowed: true, policies, reason: `NetworkPolicy ${name} allows ${word} ${peerText} on ${portText} for pod ${podName}.` };
    }
  }
  return {
    allowed: false,
    policies,
    reason: `Dropped: pod ${podName} is isolated for ${word} by ${policies.join(', ')} and no rule allows ${portText} ${peerText}.`,
  };
}

/** An absent or empty peer list matches every peer; otherwise any one peer must match. */
function peersMatch(peers: readonly NetworkPolicyPeer[] | undefined, peer: PolicyPeer, policyNamespace: string, lookup: PolicyLookup): boolean {
  if (!peers || peers.length === 0) return true;
  return peers.some((p) => peerMatches(p, peer, policyNamespace, lookup));
}

function peerMatches(rule: NetworkPolicyPeer, peer: PolicyPeer, policyNamespace: string, lookup: PolicyLookup): boolean {
  if (rule.ipBlock) {
    if (!cidrContains(rule.ipBlock.cidr, peer.ip)) return false;
    return !(rule.ipBlock.except ?? []).some((c) => cidrContains(c, peer.ip));
  }
  if (!rule.podSelector && !rule.namespaceSelector) return false; // validation rejects an empty peer; match nothing
  const pod = peer.pod;
  if (!pod) return false; // pod and namespace selectors only ever select pods
  const podNamespace = namespaceOf(pod);
  if (rule.namespaceSelector) {
    const ns = peer.namespace ?? lookup.namespaces().find((n) => n.metadata?.name === podNamespace);
    if (!labelSelectorMatches(rule.namespaceSelector, namespaceLabels(ns, podNamespace))) return false;
  } else if (podNamespace !== policyNamespace) {
    return false; // a podSelector alone selects pods in the policy's own namespace
  }
  return rule.podSelector ? labelSelectorMatches(rule.podSelector, pod.metadata?.labels) : true;
}

/** An absent or empty port list matches every port; otherwise any entry must match protocol and port. */
function portsMatch(ports: readonly NetworkPolicyPort[] | undefined, connection: ConnectionSpec, destinationPod: Pod | undefined): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => {
    const protocol = p.protocol ?? 'TCP';
    if (protocol !== connection.protocol) return false;
    if (p.port === undefined || p.port === null) return true;
    if (typeof p.port === 'number') {
      const end = p.endPort ?? p.port;
      return connection.port >= p.port && connection.port <= end;
    }
    if (/^\d+$/.test(p.port)) return Number(p.port) === connection.port; // an IntOrString given as digits
    return namedPort(destinationPod, p.port, protocol) === connection.port;
  });
}

/** A named port resolves on the destination pod's containers (name and protocol); unresolved, it matches nothing. */
function namedPort(pod: Pod | undefined, name: string, protocol: string): number | undefined {
  for (const c of pod?.spec?.containers ?? []) {
    for (const cp of c.ports ?? []) {
      if (cp.name === name && (cp.protocol ?? 'TCP') === protocol) return cp.containerPort;
    }
  }
  return undefined;
}

/** The kubernetes.io/metadata.name label is set on every namespace by the API server; add it if a caller's object lacks it. */
function namespaceLabels(ns: Namespace | undefined, name: string): Record<string, string> {
  return { 'kubernetes.io/metadata.name': name, ...(ns?.metadata?.labels ?? {}) };
}

function namespaceOf(pod: Pod): string {
  return pod.metadata?.namespace ?? 'default';
}

function namespaceOfPolicy(policy: NetworkPolicy, fallback: string): string {
  return policy.metadata?.namespace ?? fallback;
}

function describePeer(peer: PolicyPeer): string {
  if (peer.pod) return `pod ${namespaceOf(peer.pod)}/${peer.pod.metadata?.name ?? ''}`;
  return peer.ip;
}
