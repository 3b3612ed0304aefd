// Cluster IP and node port allocation through the real API server (create, update, patch, delete, dry-run).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../shared/api/types';
import { PatchType } from '../../../types';
import { dryRun, newTestServer, type TestServer } from '../../../handlers/test-harness';
import { parseIPv4 } from '../../../allocators/ip-allocator';
import { rebuildAllocators } from './alloc';

type Obj = Record<string, any>;

const svc = (name: string, spec: Obj, namespace = 'default'): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec });
const web = (name: string, extra: Obj = {}) => svc(name, { selector: { app: name }, ports: [{ port: 80 }], ...extra });
const specOf = (o: KubeObject) => o.spec as Obj;
const getSvc = (t: TestServer, name: string) => t.get('v1', 'Service', 'default', name);
const mergePatch = (t: TestServer, name: string, body: Obj) => t.patch('v1', 'Service', 'default', name, PatchType.MergePatch, body);

function inServiceRange(ip: string): boolean {
  const n = parseIPv4(ip)!;
  return n > parseIPv4('10.96.0.0')! && n < parseIPv4('10.111.255.255')!;
}

describe('the default/kubernetes Service', () => {
  it('is created at bootstrap with 10.96.0.1, its labels, 443 → the secure port, and endpoints at the control plane', () => {
    const t = newTestServer();
    const k = getSvc(t, 'kubernetes');
    expect(k.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(specOf(k)).toMatchObject({
      type: 'ClusterIP',
      clusterIP: '10.96.0.1',
      clusterIPs: ['10.96.0.1'],
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      sessionAffinity: 'None',
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 8443 }],
    });
    expect(specOf(k).selector).toBeUndefined();
    const ep = t.get('v1', 'Endpoints', 'default', 'kubernetes') as Obj;
    expect(ep.subsets).toEqual([{ addresses: [{ ip: '192.168.49.1' }], ports: [{ name: 'https', port: 8443, protocol: 'TCP' }] }]);
    expect(ep.metadata.labels).toEqual({ 'endpointslice.kubernetes.io/skip-mirror': 'true' });
    const slice = t.get('discovery.k8s.io/v1', 'EndpointSlice', 'default', 'kubernetes') as Obj;
    expect(slice.metadata.labels['kubernetes.io/service-name']).toBe('kubernetes');
    expect(slice.endpoints).toEqual([{ addresses: ['192.168.49.1'], conditions: { ready: true } }]);
    // A second bootstrap (a restarted server) changes nothing.
    const rv = k.metadata.resourceVersion;
    t.server.bootstrap();
    expect(getSvc(t, 'kubernetes').metadata.resourceVersion).toBe(rv);
  });
});

describe('cluster IP allocation', () => {
  it('gives each ClusterIP, NodePort and LoadBalancer Service a distinct single-stack IPv4 address from 10.96.0.0/12', () => {
    const t = newTestServer();
    const a = t.create(web('a'));
    const b = t.create(web('b', { type: 'NodePort' }));
    const c = t.create(web('c', { type: 'LoadBalancer' }));
    const ips = [a, b, c].map((s) => specOf(s).clusterIP as string);
    for (const [i, s] of [a, b, c].entries()) {
      expect(inServiceRange(ips[i]!)).toBe(true);
      expect(specOf(s).clusterIPs).toEqual([ips[i]]);
      expect(specOf(s).ipFamilies).toEqual(['IPv4']);
      expect(specOf(s).ipFamilyPolicy).toBe('SingleStack');
    }
    expect(new Set([...ips, '10.96.0.1']).size).toBe(4);
  });

  it('is deterministic: the same seed and history give the same addresses, another seed others', () => {
    const ipsFor = (seed: number) => {
      const t = newTestServer({ seed });
      return ['a', 'b', 'c'].map((n) => specOf(t.create(web(n))).clusterIP);
    };
    expect(ipsFor(11)).toEqual(ipsFor(11));
    expect(ipsFor(11)).not.toEqual(ipsFor(12));
  });

  it('honours a requested clusterIP and refuses a taken or out-of-range one with the real errors', () => {
    const t = newTestServer();
    expect(specOf(t.create(web('dns', { clusterIP: '10.96.0.10' }))).clusterIPs).toEqual(['10.96.0.10']);
    expect(t.failure(() => t.create(web('dup', { clusterIP: '10.96.0.10' })))).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'Service "dup" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated',
      details: { causes: [{ reason: 'FieldValueInvalid', field: 'spec.clusterIPs', message: 'Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated' }] },
    });
    expect(t.failure(() => t.create(web('k', { clusterIP: '10.96.0.1' }))).message).toBe(
      'Service "k" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: failed to allocate IP 10.96.0.1: provided IP is already allocated',
    );
    expect(t.failure(() => t.create(web('out', { clusterIP: '10.0.0.1' }))).message).toBe(
      'Service "out" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.1"}: failed to allocate IP 10.0.0.1: the provided IP (10.0.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
    expect(t.failure(() => t.create(web('v6', { clusterIP: 'fd00::10' }))).message).toBe(
      'Service "v6" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::10"}: IPv6 is not configured on this cluster',
    );
    expect(t.failure(() => t.create(web('dual', { ipFamilyPolicy: 'RequireDualStack' }))).message).toBe(
      'Service "dual" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services',
    );
    expect(t.failure(() => t.create(web('bad', { clusterIP: 'abc' }))).message).toBe(
      'Service "bad" is invalid: spec.clusterIPs[0]: Invalid value: "abc": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    );
    expect(t.list('v1', 'Service', 'default').items.map((s) => s.metadata.name).sort()).toEqual(['dns', 'kubernetes']);
  });

  it('gives headless and ExternalName Services no address', () => {
    const t = newTestServer();
    const headless = t.create(web('db', { clusterIP: 'None' }));
    expect(specOf(headless)).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    // Headless without a selector defaults to RequireDualStack, even on a single-stack cluster.
    const bare = t.create(svc('bare', { clusterIP: 'None', ports: [{ port: 80 }] }));
    expect(specOf(bare)).toMatchObject({ clusterIPs: ['None'], ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] });
    const ext = t.create(svc('ext', { type: 'ExternalName', externalName: 'example.com' }));
    expect(specOf(ext).clusterIP).toBeUndefined();
    expect(specOf(ext).clusterIPs).toBeUndefined();
    expect(specOf(ext).ipFamilies).toBeUndefined();
    expect(specOf(ext).ipFamilyPolicy).toBeUndefined();
  });

  it('frees the address when the Service is deleted, and a dry-run create reserves nothing', () => {
    const t = newTestServer();
    t.create(web('dns', { clusterIP: '10.96.0.10' }));
    t.remove('v1', 'Service', 'default', 'dns');
    expect(specOf(t.create(web('dns2', { clusterIP: '10.96.0.10' }))).clusterIP).toBe('10.96.0.10');
    const dry = t.create(web('dry', { clusterIP: '10.96.0.20' }), dryRun);
    expect(specOf(dry).clusterIP).toBe('10.96.0.20');
    expect(specOf(t.create(web('real', { clusterIP: '10.96.0.20' }))).clusterIP).toBe('10.96.0.20');
  });

  it('keeps the address across updates that leave it out, and refuses to change it', () => {
    const t = newTestServer();
    const created = t.create(web('web'));
    const ip = specOf(created).clusterIP;
    const put = t.update({ ...created, spec: { selector: { app: 'web' }, ports: [{ port: 8080 }] } });
    expect(specOf(put).clusterIP).toBe(ip);
    expect(specOf(put).clusterIPs).toEqual([ip]);
    expect(t.failure(() => mergePatch(t, 'web', { spec: { clusterIP: '10.96.0.50', clusterIPs: ['10.96.0.50'] } })).message).toBe(
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.50"}: may not change once set',
    );
    expect(t.failure(() => mergePatch(t, 'web', { spec: { clusterIP: '10.96.0.50' } })).message).toBe(
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.50"}: may not change once set',
    );
  });

  it('releases the address on a change to ExternalName and allocates one on the way back', () => {
    const t = newTestServer();
    t.create(web('web', { clusterIP: '10.96.0.30' }));
    const ext = mergePatch(t, 'web', { spec: { type: 'ExternalName', externalName: 'example.com', selector: null } });
    expect(specOf(ext).clusterIP).toBeUndefined();
    expect(specOf(ext).ipFamilies).toBeUndefined();
    expect(specOf(t.create(web('other', { clusterIP: '10.96.0.30' }))).clusterIP).toBe('10.96.0.30');
    const back = mergePatch(t, 'web', { spec: { type: 'ClusterIP', externalName: null } });
    expect(inServiceRange(specOf(back).clusterIP)).toBe(true);
    expect(specOf(back).clusterIP).not.toBe('10.96.0.30');
    expect(specOf(back).ipFamilies).toEqual(['IPv4']);
  });
});

describe('node port allocation', () => {
  it('allocates node ports in 30000-32767 for NodePort and LoadBalancer Services, one per port number', () => {
    const t = newTestServer();
    const np = t.create(svc('np', { type: 'NodePort', selector: { app: 'x' }, ports: [{ name: 'a', port: 80 }, { name: 'b', port: 443 }] }));
    const ports = specOf(np).ports.map((p: Obj) => p.nodePort as number);
    for (const p of ports) expect(p >= 30000 && p <= 32767).toBe(true);
    expect(new Set(ports).size).toBe(2);
    const dns = t.create(svc('dns', { type: 'NodePort', ports: [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }] }));
    const [udp, tcp] = specOf(dns).ports.map((p: Obj) => p.nodePort);
    expect(udp).toBe(tcp);
    const lb = t.create(web('lb', { type: 'LoadBalancer' }));
    expect(specOf(lb).ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    const noPorts = t.create(web('lb2', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }));
    expect(specOf(noPorts).ports[0].nodePort).toBeUndefined();
    const local = t.create(web('local', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }));
    expect(specOf(local).healthCheckNodePort).toBeGreaterThanOrEqual(30000);
    expect(specOf(local).healthCheckNodePort).not.toBe(specOf(local).ports[0].nodePort);
    expect(specOf(t.create(web('cip'))).ports[0].nodePort).toBeUndefined();
  });

  it('honours a requested nodePort and refuses a taken or out-of-range one with the real errors', () => {
    const t = newTestServer();
    expect(specOf(t.create(web('a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }))).ports[0].nodePort).toBe(30080);
    expect(t.failure(() => t.create(web('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] })))).toMatchObject({
      code: 422,
      message: 'Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
    });
    expect(t.failure(() => t.create(web('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] }))).message).toBe(
      'Service "c" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    // Nothing of the refused Services was kept: b's cluster IP and c's are free, no Service was stored.
    expect(t.list('v1', 'Service', 'default').items.map((s) => s.metadata.name).sort()).toEqual(['a', 'kubernetes']);
  });

  it('releases node ports on delete and on a change to ClusterIP, and allocates them on a change to NodePort', () => {
    const t = newTestServer();
    t.create(web('a', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    t.remove('v1', 'Service', 'default', 'a');
    t.create(web('b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }));
    const cip = mergePatch(t, 'b', { spec: { type: 'ClusterIP' } });
    expect(specOf(cip).ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    expect(specOf(cip).externalTrafficPolicy).toBeUndefined();
    expect(specOf(t.create(web('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }))).ports[0].nodePort).toBe(30080);
    const np = mergePatch(t, 'b', { spec: { type: 'NodePort' } });
    expect(specOf(np).ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    expect(specOf(np).ports[0].nodePort).not.toBe(30080);
    expect(specOf(np).externalTrafficPolicy).toBe('Cluster');
    // An update keeping its own node port is no conflict; moving to a taken one is.
    expect(specOf(mergePatch(t, 'b', { metadata: { labels: { x: 'y' } } })).ports[0].nodePort).toBe(specOf(np).ports[0].nodePort);
    const live = getSvc(t, 'b');
    expect(t.failure(() => t.update({ ...live, spec: { ...specOf(live), ports: [{ port: 80, nodePort: 30080 }] } })).message).toBe(
      'Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
    );
  });

  it('LoadBalancer to ClusterIP drops node ports, allocateLoadBalancerNodePorts and the health check port', () => {
    const t = newTestServer();
    t.create(web('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }));
    const cip = mergePatch(t, 'lb', { spec: { type: 'ClusterIP' } });
    expect(specOf(cip).ports[0].nodePort).toBeUndefined();
    expect(specOf(cip).healthCheckNodePort).toBeUndefined();
    expect(specOf(cip).allocateLoadBalancerNodePorts).toBeUndefined();
    expect(specOf(cip).externalTrafficPolicy).toBeUndefined();
  });
});

describe('rebuildAllocators (the repair pass)', () => {
  it('marks every stored cluster IP, node port and health check port as used', () => {
    const t = newTestServer();
    t.create(web('a', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80, nodePort: 30080 }] }));
    t.create(web('b', { clusterIP: '10.96.0.10' }));
    t.create(web('h', { clusterIP: 'None' }));
    const services = t.list('v1', 'Service', undefined).items;
    const alloc = rebuildAllocators(services);
    expect(alloc.clusterIPs.has('10.96.0.1')).toBe(true);
    expect(alloc.clusterIPs.has('10.96.0.10')).toBe(true);
    expect(alloc.clusterIPs.used()).toBe(3);
    expect(alloc.nodePorts.has(30080)).toBe(true);
    expect(alloc.nodePorts.used()).toBe(2);
  });
});
