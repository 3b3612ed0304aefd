import type { EndpointAddress, EndpointSubset, Pod, Service } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { computeSubsets } from './endpoints-controller';
import { capacityAnnotationSetCorrectly, MaxEndpointsCapacity, repackSubsets, subsetsEqual, truncateEndpoints } from './subsets';

const addr = (ip: string): EndpointAddress => ({ ip, targetRef: { kind: 'Pod', uid: ip } });

function pod(name: string, ip: string, ready: boolean, extra: Partial<Pod['metadata']> = {}): Pod {
  return {
    metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: { app: 'web' }, ...extra },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', ports: [{ name: 'http', containerPort: 8080 }] }] },
    status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

describe('RepackSubsets', () => {
  it('groups addresses by the ports they offer; not ready trumps ready', () => {
    const p80 = { port: 80, protocol: 'TCP' };
    const p443 = { port: 443, protocol: 'TCP' };
    const out = repackSubsets([
      { addresses: [addr('10.0.0.2')], ports: [p80] },
      { addresses: [addr('10.0.0.1')], ports: [p80] },
      { notReadyAddresses: [addr('10.0.0.3')], ports: [p80] },
      { addresses: [addr('10.0.0.1')], ports: [p443] },
      { addresses: [addr('10.0.0.4')], ports: [p443] },
      { notReadyAddresses: [addr('10.0.0.4')], ports: [p443] },
    ]);
    expect(out).toHaveLength(2);
    const s80 = out.find((s) => s.ports?.[0].port === 80)!;
    expect(s80.addresses?.map((a) => a.ip)).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(s80.notReadyAddresses?.map((a) => a.ip)).toEqual(['10.0.0.3']);
    const s443 = out.find((s) => s.ports?.[0].port === 443)!;
    expect(s443.addresses?.map((a) => a.ip)).toEqual(['10.0.0.1']);
    expect(s443.notReadyAddresses?.map((a) => a.ip)).toEqual(['10.0.0.4']);
  });

  it('merges ports offered by the same addresses and keeps port-less (headless) subsets', () => {
    const out = repackSubsets([
      { addresses: [addr('10.0.0.1')], ports: [{ port: 80 }] },
      { addresses: [addr('10.0.0.1')], ports: [{ port: 81 }] },
    ]);
    expect(out).toEqual([{ addresses: [addr('10.0.0.1')], ports: [{ port: 80 }, { port: 81 }] }]);
    expect(repackSubsets([{ addresses: [addr('10.0.0.9')], ports: [] }])).toEqual([{ addresses: [addr('10.0.0.9')] }]);
  });
});

describe('truncateEndpoints', () => {
  it('truncates not-ready addresses first, proportionally per subset', () => {
    const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => addr(`${prefix}.${i}`));
    const subsets: EndpointSubset[] = [
      { addresses: many('a', 600), notReadyAddresses: many('b', 300), ports: [{ port: 80 }] },
      { addresses: many('c', 200), notReadyAddresses: many('d', 100), ports: [{ port: 81 }] },
    ];
    expect(truncateEndpoints(subsets)).toBe(true);
    expect(subsets.map((s) => [s.addresses?.length, s.notReadyAddresses?.length])).toEqual([[600, 150], [200, 50]]);
    expect(capacityAnnotationSetCorrectly({}, subsets)).toBe(true);
  });

  it('truncates ready addresses (and drops every not-ready one) when they alone exceed the cap', () => {
    const many = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => addr(`${prefix}.${i}`));
    const subsets: EndpointSubset[] = [{ addresses: many('a', 1500), notReadyAddresses: many('b', 10) }];
    expect(truncateEndpoints(subsets)).toBe(true);
    expect(subsets[0].addresses).toHaveLength(MaxEndpointsCapacity);
    expect(subsets[0].notReadyAddresses).toEqual([]);
    expect(truncateEndpoints([{ addresses: many('x', 1000) }])).toBe(false);
    expect(capacityAnnotationSetCorrectly({ 'endpoints.kubernetes.io/over-capacity': 'truncated' }, [{ addresses: many('x', 3) }])).toBe(false);
  });
});

describe('computeSubsets', () => {
  const service: Service = { metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http', protocol: 'TCP' }] } };

  it('lists ready pods as addresses, unready as notReadyAddresses, and leaves out terminating ones', () => {
    const subsets = computeSubsets(service, [
      pod('a', '10.244.1.2', true),
      pod('b', '10.244.1.3', false),
      pod('c', '10.244.1.4', true, { deletionTimestamp: '2026-01-01T00:00:00Z' }),
    ]);
    expect(subsets).toEqual([
      {
        addresses: [{ ip: '10.244.1.2', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: 'uid-a' } }],
        notReadyAddresses: [{ ip: '10.244.1.3', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'b', uid: 'uid-b' } }],
        ports: [{ port: 8080, protocol: 'TCP' }],
      },
    ]);
    expect(subsetsEqual(subsets, structuredClone(subsets))).toBe(true);
  });

  it('with publishNotReadyAddresses lists every pod, terminating ones too, as ready', () => {
    const publish = { ...service, spec: { ...service.spec, publishNotReadyAddresses: true } };
    const subsets = computeSubsets(publish, [pod('b', '10.244.1.3', false), pod('c', '10.244.1.4', true, { deletionTimestamp: '2026-01-01T00:00:00Z' })]);
    expect(subsets[0].addresses?.map((a) => a.ip)).toEqual(['10.244.1.3', '10.244.1.4']);
    expect(subsets[0].notReadyAddresses).toBeUndefined();
  });
});
