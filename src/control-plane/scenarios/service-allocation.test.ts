// Service IPs and node ports on a whole cluster: default/kubernetes from bootstrap, and allocations that survive a
// reload from persistence (the restarted API server rebuilds them from the stored Services).
import { describe, expect, it } from 'vitest';
import type { Service } from 'kubernetes-types/core/v1';
import { isStatusError } from '../../shared/api/status';
import { createCluster } from '../cluster';
import { MemoryPersistence } from '../store/persistence/memory-persistence';

const service = (name: string, spec: Service['spec']): Service => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec });

describe('Service allocations across a reload', () => {
  it('keeps every cluster IP and node port after a restart: no duplicates, taken ones still refused', async () => {
    const persistence = new MemoryPersistence();
    const first = await createCluster({ persistence, nodes: 1 });
    const kube = first.client.services.get('kubernetes', { namespace: 'default' });
    expect(kube.spec?.clusterIP).toBe('10.96.0.1');
    const before = Array.from({ length: 5 }, (_, i) =>
      first.client.services.create(service(`svc-${i}`, { type: 'NodePort', selector: { app: `a${i}` }, ports: [{ port: 80 }] })),
    );
    first.client.services.create(service('dns', { clusterIP: '10.96.0.10', ports: [{ port: 53, protocol: 'UDP' }] }));
    await first.close();

    const second = await createCluster({ persistence, nodes: 1 });
    // Bootstrap on restart leaves the stored kubernetes Service alone.
    expect(second.client.services.get('kubernetes', { namespace: 'default' }).metadata?.uid).toBe(kube.metadata?.uid);
    const after = Array.from({ length: 20 }, (_, i) =>
      second.client.services.create(service(`new-${i}`, { type: 'NodePort', selector: { app: `b${i}` }, ports: [{ port: 80 }] })),
    );
    const all = second.client.services.list({ namespace: 'default' }).items;
    const ips = all.map((s) => s.spec?.clusterIP);
    expect(new Set(ips).size).toBe(all.length);
    const nodePorts = all.flatMap((s) => (s.spec?.ports ?? []).map((p) => p.nodePort).filter((p) => p !== undefined));
    expect(nodePorts).toHaveLength(before.length + after.length);
    expect(new Set(nodePorts).size).toBe(nodePorts.length);

    const taken = before[0]!.spec!.ports![0]!.nodePort!;
    let message = '';
    try {
      second.client.services.create(service('clash', { type: 'NodePort', ports: [{ port: 80, nodePort: taken }] }));
    } catch (err) {
      if (!isStatusError(err)) throw err;
      message = err.status.message;
    }
    expect(message).toBe(`Service "clash" is invalid: spec.ports[0].nodePort: Invalid value: ${taken}: provided port is already allocated`);
    try {
      second.client.services.create(service('dns2', { clusterIP: '10.96.0.10', ports: [{ port: 53 }] }));
      message = '';
    } catch (err) {
      if (!isStatusError(err)) throw err;
      message = err.status.message;
    }
    expect(message).toBe('Service "dns2" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.10"}: failed to allocate IP 10.96.0.10: provided IP is already allocated');
    await second.close();
  });
});
