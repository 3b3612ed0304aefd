import type { Namespace, Pod } from 'kubernetes-types/core/v1';
import type { NetworkPolicy, NetworkPolicySpec } from 'kubernetes-types/networking/v1';
import { describe, expect, it } from 'vitest';
import { cidrContains, parseIPv4 } from './cidr';
import { type ConnectionSpec, type PolicyLookup, type PolicyPeer, effectivePolicyTypes, evaluateConnection } from './evaluate';

function ns(name: string, labels: Record<string, string> = {}): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } } };
}

function pod(namespace: string, name: string, labels: Record<string, string>, ip: string, ports: { name?: string; containerPort: number; protocol?: string }[] = []): PolicyPeer {
  const p: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name, labels }, spec: { containers: [{ name: 'c', image: 'nginx', ports }] }, status: { podIP: ip } };
  return { pod: p, ip };
}

function policy(namespace: string, name: string, spec: NetworkPolicySpec): NetworkPolicy {
  return { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { namespace, name }, spec };
}

const namespaces = [ns('default'), ns('prod', { project: 'myproject' }), ns('other')];

function lookup(...policies: NetworkPolicy[]): PolicyLookup {
  return { policiesIn: (n) => policies.filter((p) => p.metadata?.namespace === n), namespaces: () => namespaces };
}

const web = pod('default', 'web', { app: 'web' }, '10.244.1.5', [{ name: 'http', containerPort: 80 }]);
const db = pod('default', 'db', { role: 'db' }, '10.244.1.6', [{ name: 'redis', containerPort: 6379 }]);
const client = pod('default', 'client', { role: 'frontend' }, '10.244.2.7');
const stranger = pod('default', 'stranger', { role: 'other' }, '10.244.2.8');
const prodClient = pod('prod', 'prod-client', { role: 'frontend' }, '10.244.3.9');
const otherClient = pod('other', 'other-client', { role: 'frontend' }, '10.244.3.10');
const outside: PolicyPeer = { ip: '203.0.113.7' };

function conn(source: PolicyPeer, destination: PolicyPeer, port = 80, protocol: ConnectionSpec['protocol'] = 'TCP'): ConnectionSpec {
  return { source, destination, port, protocol };
}

function passes(c: ConnectionSpec, l: PolicyLookup): boolean {
  const v = evaluateConnection(c, l);
  return v.egress.allowed && v.ingress.allowed;
}

// The NetworkPolicy docs page's example (test-network-policy) and recipes.
const testNetworkPolicy = policy('default', 'test-network-policy', {
  podSelector: { matchLabels: { role: 'db' } },
  policyTypes: ['Ingress', 'Egress'],
  ingress: [
    {
      from: [
        { ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } },
        { namespaceSelector: { matchLabels: { project: 'myproject' } } },
        { podSelector: { matchLabels: { role: 'frontend' } } },
      ],
      ports: [{ protocol: 'TCP', port: 6379 }],
    },
  ],
  egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/24' } }], ports: [{ protocol: 'TCP', port: 5978 }] }],
});
const defaultDenyIngress = policy('default', 'default-deny-ingress', { podSelector: {}, policyTypes: ['Ingress'] });
const allowAllIngress = policy('default', 'allow-all-ingress', { podSelector: {}, ingress: [{}], policyTypes: ['Ingress'] });
const defaultDenyEgress = policy('default', 'default-deny-egress', { podSelector: {}, policyTypes: ['Egress'] });
const allowAllEgress = policy('default', 'allow-all-egress', { podSelector: {}, egress: [{}], policyTypes: ['Egress'] });
const defaultDenyAll = policy('default', 'default-deny-all', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] });

describe('evaluateConnection', () => {
  it('allows everything when no policy selects either pod', () => {
    const v = evaluateConnection(conn(client, web), lookup());
    expect(v.egress).toMatchObject({ allowed: true, policies: [] });
    expect(v.ingress).toMatchObject({ allowed: true, policies: [] });
    expect(v.ingress.reason).toBe('Pod default/web is not isolated for ingress: no NetworkPolicy with policyType Ingress selects it.');
  });

  it('default deny ingress drops traffic into every pod of the namespace, names the policy, and leaves egress alone', () => {
    const v = evaluateConnection(conn(client, web), lookup(defaultDenyIngress));
    expect(v.ingress).toEqual({
      allowed: false,
      policies: ['default/default-deny-ingress'],
      reason: 'Dropped: pod default/web is isolated for ingress by default/default-deny-ingress and no rule allows TCP/80 from pod default/client.',
    });
    expect(v.egress.allowed).toBe(true);
    // A pod in another namespace is not selected by it.
    expect(passes(conn(client, otherClient), lookup(defaultDenyIngress))).toBe(true);
  });

  it('an allow-all rule `{}` unions with a default deny', () => {
    expect(passes(conn(outside, web), lookup(defaultDenyIngress, allowAllIngress))).toBe(true);
    const v = evaluateConnection(conn(outside, web), lookup(defaultDenyIngress, allowAllIngress));
    expect(v.ingress.policies).toEqual(['default/default-deny-ingress', 'default/allow-all-ingress']);
    expect(v.ingress.reason).toBe('NetworkPolicy default/allow-all-ingress allows ingress from 203.0.113.7 on TCP/80 for pod default/web.');
  });

  it('default deny egress drops traffic out of the namespace pods; allow-all egress restores it', () => {
    const v = evaluateConnection(conn(client, web), lookup(defaultDenyEgress));
    expect(v.egress.allowed).toBe(false);
    expect(v.egress.reason).toBe('Dropped: pod default/client is isolated for egress by default/default-deny-egress and no rule allows TCP/80 to pod default/web.');
    expect(v.ingress.allowed).toBe(true);
    expect(passes(conn(client, outside), lookup(defaultDenyEgress))).toBe(false);
    expect(passes(conn(client, web), lookup(defaultDenyEgress, allowAllEgress))).toBe(true);
    // A request from outside the cluster has no egress side.
    expect(evaluateConnection(conn(outside, web), lookup(defaultDenyEgress)).egress.allowed).toBe(true);
  });

  it('default deny all isolates both directions', () => {
    const v = evaluateConnection(conn(client, web), lookup(defaultDenyAll));
    expect(v.egress.allowed).toBe(false);
    expect(v.ingress.allowed).toBe(false);
  });

  it('policyTypes default to Ingress, plus Egress when egress rules exist', () => {
    expect(effectivePolicyTypes(policy('default', 'a', { podSelector: {} }))).toEqual(['Ingress']);
    expect(effectivePolicyTypes(policy('default', 'b', { podSelector: {}, egress: [{}] }))).toEqual(['Ingress', 'Egress']);
    expect(effectivePolicyTypes(policy('default', 'c', { podSelector: {}, policyTypes: ['Egress'] }))).toEqual(['Egress']);
    // No policyTypes, only ingress rules: egress is not isolated even though the policy selects the pod.
    const ingressOnly = policy('default', 'ingress-only', { podSelector: {}, ingress: [{ from: [{ podSelector: { matchLabels: { role: 'frontend' } } }] }] });
    expect(evaluateConnection(conn(web, outside), lookup(ingressOnly)).egress).toMatchObject({ allowed: true, policies: [] });
    expect(evaluateConnection(conn(stranger, web), lookup(ingressOnly)).ingress.allowed).toBe(false);
    // No policyTypes and egress rules: egress is isolated too.
    const withEgress = policy('default', 'with-egress', { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] });
    expect(evaluateConnection(conn(web, outside), lookup(withEgress)).egress.allowed).toBe(false);
    expect(evaluateConnection(conn(web, client), lookup(withEgress)).egress.allowed).toBe(true);
    // ...and ingress, with no ingress rules, denies all.
    expect(evaluateConnection(conn(client, web), lookup(withEgress)).ingress.allowed).toBe(false);
  });

  it('the docs example test-network-policy: ipBlock with except, namespaceSelector, podSelector, port 6379', () => {
    const l = lookup(testNetworkPolicy);
    const table: [string, PolicyPeer, number, boolean][] = [
      ['frontend pod in default on 6379', client, 6379, true],
      ['frontend pod in default on another port', client, 80, false],
      ['non-frontend pod in default', stranger, 6379, false],
      ['any pod in a namespace labelled project=myproject', prodClient, 6379, true],
      ['frontend pod in a namespace without the label (podSelector alone means the policy namespace)', otherClient, 6379, false],
      ['an address in 172.17.0.0/16', { ip: '172.17.0.4' }, 6379, true],
      ['an address in the except block 172.17.1.0/24', { ip: '172.17.1.4' }, 6379, false],
      ['an address outside the block', { ip: '172.18.0.4' }, 6379, false],
    ];
    for (const [what, source, port, allowed] of table) {
      expect(evaluateConnection(conn(source, db, port), l).ingress.allowed, what).toBe(allowed);
    }
    // UDP to 6379 does not match a TCP port entry.
    expect(evaluateConnection(conn(client, db, 6379, 'UDP'), l).ingress.allowed).toBe(false);
    // Egress from db: only TCP 5978 to 10.0.0.0/24.
    expect(evaluateConnection(conn(db, { ip: '10.0.0.9' }, 5978), l).egress.allowed).toBe(true);
    expect(evaluateConnection(conn(db, { ip: '10.0.0.9' }, 5979), l).egress.allowed).toBe(false);
    expect(evaluateConnection(conn(db, { ip: '10.0.1.9' }, 5978), l).egress.allowed).toBe(false);
    // The policy does not select web.
    expect(passes(conn(stranger, web), l)).toBe(true);
  });

  it('namespaceSelector and podSelector in one peer are ANDed; in two peers they are ORed', () => {
    const and = policy('default', 'and', {
      podSelector: { matchLabels: { app: 'web' } },
      ingress: [{ from: [{ namespaceSelector: { matchLabels: { project: 'myproject' } }, podSelector: { matchLabels: { role: 'frontend' } } }] }],
    });
    const or = policy('default', 'or', {
      podSelector: { matchLabels: { app: 'web' } },
      ingress: [{ from: [{ namespaceSelector: { matchLabels: { project: 'myproject' } } }, { podSelector: { matchLabels: { role: 'frontend' } } }] }],
    });
    const prodOther = pod('prod', 'prod-other', { role: 'other' }, '10.244.3.11');
    expect(passes(conn(prodClient, web), lookup(and))).toBe(true);
    expect(passes(conn(prodOther, web), lookup(and))).toBe(false);
    expect(passes(conn(client, web), lookup(and))).toBe(false);
    expect(passes(conn(prodClient, web), lookup(or))).toBe(true);
    expect(passes(conn(prodOther, web), lookup(or))).toBe(true);
    expect(passes(conn(client, web), lookup(or))).toBe(true);
    expect(passes(conn(otherClient, web), lookup(or))).toBe(false);
  });

  it('an empty namespaceSelector selects pods in every namespace; kubernetes.io/metadata.name selects one', () => {
    const all = policy('default', 'all-ns', { podSelector: {}, ingress: [{ from: [{ namespaceSelector: {} }] }] });
    expect(passes(conn(otherClient, web), lookup(all))).toBe(true);
    expect(passes(conn(outside, web), lookup(all))).toBe(false); // selectors only ever select pods
    const byName = policy('default', 'by-name', { podSelector: {}, ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'other' } } }] }] });
    expect(passes(conn(otherClient, web), lookup(byName))).toBe(true);
    expect(passes(conn(prodClient, web), lookup(byName))).toBe(false);
  });

  it('matchExpressions in selectors', () => {
    const p = policy('default', 'exprs', {
      podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] },
      ingress: [{ from: [{ podSelector: { matchExpressions: [{ key: 'role', operator: 'NotIn', values: ['other'] }] } }] }],
    });
    expect(passes(conn(client, web), lookup(p))).toBe(true);
    expect(passes(conn(stranger, web), lookup(p))).toBe(false);
    expect(passes(conn(stranger, db), lookup(p))).toBe(true); // db is not selected
  });

  it('ports: named port resolved on the destination pod, endPort ranges, protocol, port omitted', () => {
    const named = policy('default', 'named', { podSelector: {}, ingress: [{ ports: [{ port: 'http' }] }] });
    expect(passes(conn(client, web, 80), lookup(named))).toBe(true);
    expect(passes(conn(client, db, 80), lookup(named))).toBe(false); // db has no port named http
    expect(passes(conn(client, web, 8080), lookup(named))).toBe(false);
    const range = policy('default', 'range', { podSelector: {}, ingress: [{ ports: [{ protocol: 'TCP', port: 32000, endPort: 32768 }] }] });
    expect(passes(conn(client, web, 32000), lookup(range))).toBe(true);
    expect(passes(conn(client, web, 32768), lookup(range))).toBe(true);
    expect(passes(conn(client, web, 32769), lookup(range))).toBe(false);
    expect(passes(conn(client, web, 31999), lookup(range))).toBe(false);
    const udpOnly = policy('default', 'udp', { podSelector: {}, ingress: [{ ports: [{ protocol: 'UDP' }] }] });
    expect(passes(conn(client, web, 53, 'UDP'), lookup(udpOnly))).toBe(true);
    expect(passes(conn(client, web, 53, 'TCP'), lookup(udpOnly))).toBe(false);
    // Egress with a named port: it resolves on the destination pod too.
    const egressNamed = policy('default', 'egress-named', { podSelector: { matchLabels: { role: 'frontend' } }, policyTypes: ['Egress'], egress: [{ ports: [{ port: 'redis' }] }] });
    expect(passes(conn(client, db, 6379), lookup(egressNamed))).toBe(true);
    expect(passes(conn(client, web, 6379), lookup(egressNamed))).toBe(false);
    expect(passes(conn(client, outside, 6379), lookup(egressNamed))).toBe(false);
  });

  it('rules are a union across rules and across policies; a rule needs both its peers and its ports', () => {
    const a = policy('default', 'a', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ podSelector: { matchLabels: { role: 'frontend' } } }], ports: [{ port: 80 }] }] });
    const b = policy('default', 'b', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ ipBlock: { cidr: '203.0.113.0/24' } }], ports: [{ port: 443 }] }] });
    expect(passes(conn(client, web, 80), lookup(a, b))).toBe(true);
    expect(passes(conn(client, web, 443), lookup(a, b))).toBe(false);
    expect(passes(conn(outside, web, 443), lookup(a, b))).toBe(true);
    expect(passes(conn(outside, web, 80), lookup(a, b))).toBe(false);
    expect(evaluateConnection(conn(outside, web, 80), lookup(a, b)).ingress.policies).toEqual(['default/a', 'default/b']);
  });

  it('an ingress rule with an empty from list allows every source on its ports', () => {
    const p = policy('default', 'ports-only', { podSelector: {}, ingress: [{ from: [], ports: [{ port: 80 }] }] });
    expect(passes(conn(outside, web, 80), lookup(p))).toBe(true);
    expect(passes(conn(otherClient, web, 80), lookup(p))).toBe(true);
    expect(passes(conn(otherClient, web, 81), lookup(p))).toBe(false);
  });
});

describe('cidrContains', () => {
  it('does IPv4 prefix math', () => {
    expect(parseIPv4('10.0.0.1')).toBe(167772161);
    expect(parseIPv4('256.0.0.1')).toBeUndefined();
    expect(parseIPv4('fe80::1')).toBeUndefined();
    expect(cidrContains('10.0.0.0/8', '10.255.255.255')).toBe(true);
    expect(cidrContains('10.0.0.0/8', '11.0.0.0')).toBe(false);
    expect(cidrContains('192.168.1.0/24', '192.168.1.200')).toBe(true);
    expect(cidrContains('192.168.1.0/24', '192.168.2.1')).toBe(false);
    expect(cidrContains('192.168.1.7/32', '192.168.1.7')).toBe(true);
    expect(cidrContains('192.168.1.7/32', '192.168.1.8')).toBe(false);
    expect(cidrContains('0.0.0.0/0', '8.8.8.8')).toBe(true);
    expect(cidrContains('172.16.0.0/12', '172.31.255.1')).toBe(true);
    expect(cidrContains('172.16.0.0/12', '172.32.0.1')).toBe(false);
    expect(cidrContains('10.0.0.0/33', '10.0.0.1')).toBe(false);
    expect(cidrContains('::/0', '10.0.0.1')).toBe(false);
  });
});
