import type { Service } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { describe, expect, it } from 'vitest';
import { candidates, resolve, searchPath, type DnsLookup } from './dns';

const services: Service[] = [
  { metadata: { name: 'web', namespace: 'default' }, spec: { clusterIP: '10.96.0.50', ports: [{ port: 80 }] } },
  { metadata: { name: 'db', namespace: 'data' }, spec: { clusterIP: 'None', ports: [{ port: 5432 }] } },
  { metadata: { name: 'alias', namespace: 'default' }, spec: { type: 'ExternalName', externalName: 'web.default.svc.cluster.local' } },
  { metadata: { name: 'outside', namespace: 'default' }, spec: { type: 'ExternalName', externalName: 'my.database.example.com' } },
];
const slices: EndpointSlice[] = [
  {
    metadata: { name: 'db-abc', namespace: 'data', labels: { 'kubernetes.io/service-name': 'db' } },
    addressType: 'IPv4',
    endpoints: [
      { addresses: ['10.244.2.7'], hostname: 'db-1', conditions: { ready: true } },
      { addresses: ['10.244.1.3'], hostname: 'db-0', conditions: { ready: true } },
      { addresses: ['10.244.1.9'], hostname: 'db-2', conditions: { ready: false } },
    ],
  },
];
const lookup: DnsLookup = {
  service: (ns, name) => services.find((s) => s.metadata?.namespace === ns && s.metadata?.name === name),
  endpointSlices: (ns, svc) => slices.filter((s) => s.metadata?.namespace === ns && s.metadata?.labels?.['kubernetes.io/service-name'] === svc),
  namespaceExists: (n) => ['default', 'data'].includes(n),
};

describe('cluster DNS', () => {
  it('tries the search path first for names with fewer than 5 dots, absolute names only as given', () => {
    expect(searchPath('team-a')).toEqual(['team-a.svc.cluster.local', 'svc.cluster.local', 'cluster.local']);
    expect(candidates('web', searchPath('default'))).toEqual(['web.default.svc.cluster.local', 'web.svc.cluster.local', 'web.cluster.local', 'web']);
    expect(candidates('web.default.svc.cluster.local.', searchPath('default'))).toEqual(['web.default.svc.cluster.local']);
  });

  it('answers a Service by every short form, and from another namespace only with its namespace', () => {
    for (const name of ['web', 'web.default', 'web.default.svc', 'web.default.svc.cluster.local']) {
      expect(resolve(name, 'default', lookup)).toMatchObject({ found: true, fqdn: 'web.default.svc.cluster.local', addresses: ['10.96.0.50'] });
    }
    expect(resolve('web', 'data', lookup).found).toBe(false);
    expect(resolve('web.default', 'data', lookup)).toMatchObject({ found: true, addresses: ['10.96.0.50'] });
  });

  it('answers a headless Service with its ready endpoints, and each by hostname', () => {
    expect(resolve('db', 'data', lookup)).toMatchObject({ found: true, addresses: ['10.244.1.3', '10.244.2.7'] });
    const r = resolve('db', 'data', lookup);
    expect(r.found && r.ptr['10.244.1.3']).toBe('db-0.db.data.svc.cluster.local');
    expect(resolve('db-1.db.data', 'default', lookup)).toMatchObject({ found: true, fqdn: 'db-1.db.data.svc.cluster.local', addresses: ['10.244.2.7'] });
    // Not ready: no record.
    expect(resolve('db-2.db', 'data', lookup).found).toBe(false);
  });

  it('follows ExternalName CNAMEs inside the cluster; names outside do not resolve offline', () => {
    expect(resolve('alias', 'default', lookup)).toMatchObject({ found: true, cname: 'web.default.svc.cluster.local', addresses: ['10.96.0.50'] });
    expect(resolve('outside', 'default', lookup)).toMatchObject({ found: false, cname: 'my.database.example.com' });
    expect(resolve('example.com', 'default', lookup).found).toBe(false);
  });

  it('answers pod A records and IP literals; outside the cluster nothing but IPs', () => {
    expect(resolve('10-244-1-3.data.pod.cluster.local', 'default', lookup)).toMatchObject({ found: true, addresses: ['10.244.1.3'] });
    expect(resolve('10-244-1-3.nope.pod.cluster.local', 'default', lookup).found).toBe(false);
    expect(resolve('10.96.0.50', undefined, lookup)).toMatchObject({ found: true, addresses: ['10.96.0.50'] });
    expect(resolve('web.default.svc.cluster.local', undefined, lookup).found).toBe(false);
  });
});
