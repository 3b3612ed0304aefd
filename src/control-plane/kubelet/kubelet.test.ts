import { describe, expect, it } from 'vitest';
import type { Lease } from 'kubernetes-types/coordination/v1';
import { defaultNodeConfigs } from './node-config';
import { kubeletTestBed } from './testing';

describe('Kubelet node registration and heartbeats', () => {
  it('registers its Node with capacity, allocatable, labels, addresses, conditions and nodeInfo', async () => {
    const tb = await kubeletTestBed({ nodes: defaultNodeConfigs(3) });
    const node = tb.cluster.client.nodes.get('node-2');
    expect(node.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': 'node-2',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'topology.kubernetes.io/zone': 'zone-b',
    });
    expect(node.metadata.labels?.['node.kubernetes.io/instance-type']).toBeTruthy();
    expect(node.spec).toMatchObject({ podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'] });
    expect(node.status?.capacity).toMatchObject({ cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' });
    expect(node.status?.allocatable).toMatchObject({ cpu: '4', memory: '8092Mi', pods: '110' });
    expect(node.status?.addresses).toEqual([
      { type: 'InternalIP', address: '192.168.49.3' },
      { type: 'Hostname', address: 'node-2' },
    ]);
    expect(node.status?.nodeInfo).toMatchObject({ kubeletVersion: 'v1.32.0', containerRuntimeVersion: 'containerd://1.7.24', operatingSystem: 'linux', architecture: 'amd64' });
    expect(node.status?.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID'],
      ['Ready', 'True', 'KubeletReady'],
    ]);
    const ready = node.status!.conditions!.find((c) => c.type === 'Ready')!;
    expect(ready.message).toBe('kubelet is posting ready status');
    expect(ready.lastHeartbeatTime).toBeTruthy();
    const reasons = tb.events('node-2').map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['Starting', 'NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady']));
    await tb.close();
  });

  it('renews its Lease in kube-node-lease every 10 s, owned by the Node', async () => {
    const tb = await kubeletTestBed();
    const { client, clock } = tb.cluster;
    const node = client.nodes.get('node-1');
    const lease = client.leases.get('node-1', { namespace: 'kube-node-lease' }) as Lease;
    expect(lease.spec).toMatchObject({ holderIdentity: 'node-1', leaseDurationSeconds: 40 });
    expect(lease.spec?.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(lease.metadata?.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: node.metadata.uid }]);
    const renewals: number[] = [];
    let last = lease.spec!.renewTime!;
    for (let i = 0; i < 60; i++) {
      clock.advance(1000);
      const now = (client.leases.get('node-1', { namespace: 'kube-node-lease' }) as Lease).spec!.renewTime!;
      if (now !== last) renewals.push(Date.parse(now) - Date.parse(last));
      last = now;
    }
    expect(renewals).toEqual([10_000, 10_000, 10_000, 10_000, 10_000, 10_000]);
    await tb.close();
  });

  it('writes node status only when it changed, and at least every 5 minutes', async () => {
    const tb = await kubeletTestBed();
    const { client, clock } = tb.cluster;
    const rvs = new Set<string>();
    const heartbeat = () => client.nodes.get('node-1').status!.conditions!.find((c) => c.type === 'Ready')!.lastHeartbeatTime;
    const first = heartbeat();
    for (let i = 0; i < 29; i++) {
      clock.advance(10_000);
      rvs.add(client.nodes.get('node-1').metadata.resourceVersion!);
    }
    expect(heartbeat()).toBe(first);
    expect(rvs.size).toBe(1);
    clock.advance(15_000);
    expect(Date.parse(heartbeat()!) - Date.parse(first!)).toBe(300_000);
    await tb.close();
  });

  it('stops renewing its lease when killed, and re-registers the same Node on restart', async () => {
    const tb = await kubeletTestBed();
    const { client, clock } = tb.cluster;
    const uid = client.nodes.get('node-1').metadata.uid;
    tb.nodes.kill('node-1');
    const renew = () => (client.leases.get('node-1', { namespace: 'kube-node-lease' }) as Lease).spec!.renewTime;
    const before = renew();
    clock.advance(60_000);
    expect(renew()).toBe(before);
    tb.nodes.restart('node-1');
    clock.advance(1000);
    expect(client.nodes.get('node-1').metadata.uid).toBe(uid);
    expect(renew()).not.toBe(before);
    await tb.close();
  });
});

describe('Kubelet running pods', () => {
  const nginx = `
apiVersion: v1
kind: Pod
metadata: {name: nginx}
spec:
  containers:
  - name: nginx
    image: nginx:1.14.2
    ports: [{containerPort: 80}]
`;

  it('takes an nginx pod from Pending through ContainerCreating to Running and Ready', async () => {
    const tb = await kubeletTestBed();
    const { clock } = tb.cluster;
    tb.run(nginx);
    clock.advance(100);
    let pod = tb.pod('nginx')!;
    expect(pod.status?.phase).toBe('Pending');
    expect(pod.status?.containerStatuses?.[0].state).toEqual({ waiting: { reason: 'ContainerCreating' } });
    expect(pod.status?.hostIP).toBe('192.168.49.2');
    tb.cluster.runUntil(() => tb.pod('nginx')?.status?.phase === 'Running', 30_000);
    pod = tb.pod('nginx')!;
    const cs = pod.status!.containerStatuses![0];
    expect(cs).toMatchObject({ name: 'nginx', ready: true, started: true, restartCount: 0, image: 'docker.io/library/nginx:1.14.2' });
    expect(cs.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    expect(cs.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(cs.state?.running?.startedAt).toBeTruthy();
    expect(pod.status?.podIP).toBe('10.244.1.2');
    expect(pod.status?.podIPs).toEqual([{ ip: '10.244.1.2' }]);
    expect(pod.status?.qosClass).toBe('BestEffort');
    expect(pod.status?.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['PodReadyToStartContainers', 'True'],
      ['Initialized', 'True'],
      ['Ready', 'True'],
      ['ContainersReady', 'True'],
      ['PodScheduled', 'True'],
    ]);
    const events = tb.events('nginx');
    expect(events.map((e) => e.reason)).toEqual(['Pulling', 'Pulled', 'Created', 'Started']);
    expect(events[0].message).toBe('Pulling image "nginx:1.14.2"');
    expect(events[1].message).toMatch(/^Successfully pulled image "nginx:1\.14\.2" in [\d.]+m?s \([\d.]+m?s including waiting\)\. Image size: \d+ bytes\.$/);
    expect(events[2].message).toBe('Created container: nginx');
    expect(events[3].message).toBe('Started container nginx');
    expect(events[0].source).toEqual({ component: 'kubelet', host: 'node-1' });
    clock.advance(1000);
    const logs = tb.nodes.logs('default', 'nginx');
    expect('lines' in logs && logs.lines.some((l) => l.text.includes('nginx/1.14.2'))).toBe(true);
    await tb.close();
  });
});
