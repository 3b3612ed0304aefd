// Service, Namespace, ConfigMap, Secret, Node, PV/PVC, Event, ReplicationController, LimitRange and friends.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../shared/api/types';
import { strategyFor } from '../strategies';
import { create, invalidMessage, podTemplate, resourceType, update } from '../test-harness';
import { needsClusterIPAllocation } from './service/strategy';

type Obj = Record<string, any>;

const v1 = (kind: string, name: string, rest: Obj = {}): KubeObject => ({ apiVersion: 'v1', kind, metadata: { name }, ...rest });

describe('Service', () => {
  it('applies SetDefaults_Service and the single-stack families', () => {
    const svc = create('', 'services', v1('Service', 'web', { spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } }));
    const spec = svc.spec as Obj;
    expect(spec.type).toBe('ClusterIP');
    expect(spec.sessionAffinity).toBe('None');
    expect(spec.ports).toEqual([{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    expect(spec.internalTrafficPolicy).toBe('Cluster');
    expect(spec.ipFamilyPolicy).toBe('SingleStack');
    expect(spec.ipFamilies).toEqual(['IPv4']);
    expect(spec.externalTrafficPolicy).toBeUndefined();
    expect(svc.status).toEqual({ loadBalancer: {} });
    // The REST layer allocated a cluster IP from 10.96.0.0/12 (outside the static block 10.96.0.1–10.96.1.0).
    expect(spec.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
    expect(spec.clusterIPs).toEqual([spec.clusterIP]);
    expect(needsClusterIPAllocation(svc)).toBe(false);
  });

  it('defaults NodePort and LoadBalancer extras', () => {
    const lb = create('', 'services', v1('Service', 'lb', { spec: { type: 'LoadBalancer', ports: [{ port: 80, targetPort: 'http' }] } }));
    expect((lb.spec as Obj).externalTrafficPolicy).toBe('Cluster');
    expect((lb.spec as Obj).allocateLoadBalancerNodePorts).toBe(true);
    expect((lb.spec as Obj).ports[0].targetPort).toBe('http');
  });

  it('requires ports unless headless or ExternalName', () => {
    expect(invalidMessage(() => create('', 'services', v1('Service', 'web', { spec: { selector: { app: 'web' } } })))).toBe('Service "web" is invalid: spec.ports: Required value');
    expect(create('', 'services', v1('Service', 'db', { spec: { clusterIP: 'None', selector: { app: 'db' } } })).metadata.name).toBe('db');
    const ext = create('', 'services', v1('Service', 'ext', { spec: { type: 'ExternalName', externalName: 'example.com' } }));
    expect((ext.spec as Obj).ipFamilies).toBeUndefined();
    expect(needsClusterIPAllocation(ext)).toBe(false);
  });

  it('validates ports, names, types and node ports', () => {
    const msg = (spec: Obj) => invalidMessage(() => create('', 'services', v1('Service', 'web', { spec })));
    // targetPort defaults to port, so a zero port is reported twice, as Kubernetes does.
    expect(msg({ ports: [{ port: 0 }] })).toBe(
      'Service "web" is invalid: [spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive]',
    );
    expect(msg({ ports: [{ port: 80 }, { port: 81 }] })).toBe('Service "web" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]');
    expect(msg({ ports: [{ port: 80, name: 'a' }, { port: 81, name: 'a' }] })).toBe('Service "web" is invalid: spec.ports[1].name: Duplicate value: "a"');
    expect(msg({ type: 'Internal', ports: [{ port: 80 }] })).toBe(
      'Service "web" is invalid: spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    );
    expect(msg({ type: 'NodePort', ports: [{ port: 80, nodePort: 80 }] })).toBe(
      'Service "web" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    expect(msg({ ports: [{ port: 80, nodePort: 30080 }] })).toBe("Service \"web\" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'");
    expect(msg({ selector: { app: 'a b' }, ports: [{ port: 80 }] })).toMatch(/^Service "web" is invalid: spec.selector: Invalid value: "a b": a valid label/);
  });

  it('keeps an allocated clusterIP and node ports across updates', () => {
    const svc = create('', 'services', v1('Service', 'web', { spec: { type: 'NodePort', clusterIP: '10.96.0.10', ports: [{ port: 80, nodePort: 30080 }] } }));
    expect((svc.spec as Obj).clusterIPs).toEqual(['10.96.0.10']);
    const applied = update('', 'services', { ...svc, spec: { type: 'NodePort', ports: [{ port: 80 }] } }, svc);
    expect((applied.spec as Obj).clusterIP).toBe('10.96.0.10');
    expect((applied.spec as Obj).ports[0].nodePort).toBe(30080);
    expect(invalidMessage(() => update('', 'services', { ...svc, spec: { ...(svc.spec as Obj), clusterIP: '10.96.0.11', clusterIPs: ['10.96.0.11'] } }, svc))).toBe(
      'Service "web" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.11"}: may not change once set',
    );
  });
});

describe('Namespace', () => {
  it('starts Active with the kubernetes finalizer and the name label', () => {
    const ns = create('', 'namespaces', v1('Namespace', 'team-a'));
    expect(ns.status).toEqual({ phase: 'Active' });
    expect(ns.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(ns.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
    expect(ns.metadata.namespace).toBeUndefined();
  });

  it('keeps finalizers, status and the name label on update', () => {
    const ns = create('', 'namespaces', v1('Namespace', 'team-a'));
    const next = update('', 'namespaces', { ...ns, metadata: { ...ns.metadata, labels: { team: 'a' } }, spec: { finalizers: [] }, status: { phase: 'Terminating' } }, ns);
    expect(next.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(next.status).toEqual({ phase: 'Active' });
    expect(next.metadata.labels).toEqual({ team: 'a', 'kubernetes.io/metadata.name': 'team-a' });
  });

  it('selects on status.phase', () => {
    const ns = create('', 'namespaces', v1('Namespace', 'n'));
    expect(strategyFor(resourceType('', 'namespaces')).selectableFields?.(ns)).toEqual({ 'metadata.name': 'n', 'status.phase': 'Active' });
  });
});

describe('ConfigMap and Secret', () => {
  it('accepts prototype-looking keys as data (B22)', () => {
    const data = JSON.parse('{"__proto__":"x","constructor":"y"}') as Obj;
    const cm = create('', 'configmaps', v1('ConfigMap', 'c', { data }));
    expect(Object.keys(cm.data as Obj)).toEqual(['__proto__', 'constructor']);
    expect(({} as Obj).x).toBeUndefined();
  });

  it('rejects bad keys and oversized data', () => {
    expect(invalidMessage(() => create('', 'configmaps', v1('ConfigMap', 'c', { data: { 'a b': '1' } })))).toBe(
      "ConfigMap \"c\" is invalid: data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    );
    expect(invalidMessage(() => create('', 'configmaps', v1('ConfigMap', 'c', { data: { a: 'x'.repeat(1048577) } })))).toBe(
      'ConfigMap "c" is invalid: : Too long: may not be more than 1048576 bytes',
    );
    expect(invalidMessage(() => create('', 'configmaps', v1('ConfigMap', 'c', { data: { a: '1' }, binaryData: { a: 'AA==' } })))).toBe(
      'ConfigMap "c" is invalid: data[a]: Invalid value: "a": duplicate of key present in binaryData',
    );
  });

  it('freezes immutable ConfigMaps', () => {
    const cm = create('', 'configmaps', v1('ConfigMap', 'c', { data: { a: '1' }, immutable: true }));
    expect(invalidMessage(() => update('', 'configmaps', { ...cm, data: { a: '2' } }, cm))).toBe(
      'ConfigMap "c" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    );
    expect(invalidMessage(() => update('', 'configmaps', { ...cm, immutable: false }, cm))).toBe(
      'ConfigMap "c" is invalid: immutable: Forbidden: field is immutable when `immutable` is set',
    );
  });

  it('defaults Secrets to Opaque and folds stringData into data', () => {
    const s = create('', 'secrets', v1('Secret', 's', { stringData: { password: 'héllo' }, data: { user: 'YWRtaW4=' } }));
    expect(s.type).toBe('Opaque');
    expect(s.data).toEqual({ user: 'YWRtaW4=', password: 'aMOpbGxv' });
    expect(s.stringData).toBeUndefined();
  });

  it('keeps a "__proto__" stringData key as data', () => {
    const s = create('', 'secrets', v1('Secret', 's', { stringData: JSON.parse('{"__proto__":"x"}') }));
    expect(Object.keys(s.data as Obj)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(s.data)).toBe(Object.prototype);
  });

  it('checks type-specific keys and keeps the type immutable', () => {
    expect(invalidMessage(() => create('', 'secrets', v1('Secret', 's', { type: 'kubernetes.io/basic-auth', data: {} })))).toBe(
      'Secret "s" is invalid: [data[username]: Required value, data[password]: Required value]',
    );
    expect(invalidMessage(() => create('', 'secrets', v1('Secret', 's', { type: 'kubernetes.io/tls', data: { 'tls.crt': 'eA==' } })))).toBe(
      'Secret "s" is invalid: data[tls.key]: Required value',
    );
    const s = create('', 'secrets', v1('Secret', 's', { data: { a: 'eA==' } }));
    expect(invalidMessage(() => update('', 'secrets', { ...s, type: 'kubernetes.io/tls' }, s))).toMatch(/^Secret "s" is invalid: \[type: Invalid value: "kubernetes.io\/tls": field is immutable, /);
    expect(strategyFor(resourceType('', 'secrets')).selectableFields?.(s).type).toBe('Opaque');
  });
});

describe('Node', () => {
  it('keeps the status a kubelet registers with and defaults allocatable', () => {
    const n = create('', 'nodes', v1('Node', 'node-1', { status: { capacity: { cpu: '4', memory: '8Gi', pods: '110' } } }));
    expect((n.status as Obj).allocatable).toEqual({ cpu: '4', memory: '8Gi', pods: '110' });
    expect(n.metadata.namespace).toBeUndefined();
  });

  it('requires unique taints by key and effect', () => {
    const taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
    expect(invalidMessage(() => create('', 'nodes', v1('Node', 'n', { spec: { taints: [taint, { ...taint, value: 'x' }] } })))).toBe(
      'Node "n" is invalid: metadata.taints[1]: Duplicate value: {"key":"dedicated","value":"x","effect":"NoSchedule"}: taints must be unique by key and effect pair',
    );
  });

  it('keeps status on spec updates and selects on spec.unschedulable', () => {
    const n = create('', 'nodes', v1('Node', 'n', { status: { capacity: { cpu: '1' } } }));
    const cordoned = update('', 'nodes', { ...n, spec: { unschedulable: true }, status: {} }, n);
    expect((cordoned.status as Obj).capacity).toEqual({ cpu: '1' });
    expect(strategyFor(resourceType('', 'nodes')).selectableFields?.(cordoned)['spec.unschedulable']).toBe('true');
  });
});

describe('PersistentVolumeClaim and PersistentVolume', () => {
  const claim = (spec: Obj) => v1('PersistentVolumeClaim', 'data', { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } });

  it('defaults and starts Pending', () => {
    const pvc = create('', 'persistentvolumeclaims', claim({}));
    expect((pvc.spec as Obj).volumeMode).toBe('Filesystem');
    expect(pvc.status).toEqual({ phase: 'Pending' });
  });

  it('validates access modes and size', () => {
    expect(invalidMessage(() => create('', 'persistentvolumeclaims', claim({ accessModes: [] })))).toBe(
      'PersistentVolumeClaim "data" is invalid: spec.accessModes: Required value: at least 1 access mode is required',
    );
    expect(invalidMessage(() => create('', 'persistentvolumeclaims', claim({ resources: {} })))).toBe(
      'PersistentVolumeClaim "data" is invalid: spec.resources[storage]: Required value',
    );
  });

  it('keeps the spec immutable except volumeName', () => {
    const pvc = create('', 'persistentvolumeclaims', claim({}));
    expect((update('', 'persistentvolumeclaims', { ...pvc, spec: { ...(pvc.spec as Obj), volumeName: 'pv-1' } }, pvc).spec as Obj).volumeName).toBe('pv-1');
    expect(invalidMessage(() => update('', 'persistentvolumeclaims', { ...pvc, spec: { ...(pvc.spec as Obj), accessModes: ['ReadWriteMany'] } }, pvc))).toMatch(
      /^PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n/,
    );
  });

  it('defaults PVs to Retain', () => {
    const pv = create('', 'persistentvolumes', v1('PersistentVolume', 'pv-1', { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } } }));
    expect((pv.spec as Obj).persistentVolumeReclaimPolicy).toBe('Retain');
    expect((pv.spec as Obj).volumeMode).toBe('Filesystem');
    expect((pv.status as Obj).phase).toBe('Pending');
    expect(invalidMessage(() => create('', 'persistentvolumes', v1('PersistentVolume', 'pv-2', { spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } })))).toBe(
      'PersistentVolume "pv-2" is invalid: spec: Required value: must specify a volume type',
    );
  });
});

describe('Event', () => {
  it('accepts dotted event names and checks the involved namespace', () => {
    const ev = create('', 'events', v1('Event', 'web.17a2b3c4d5e6f7a8', { involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' }, reason: 'Started', type: 'Normal' }));
    expect(ev.metadata.name).toBe('web.17a2b3c4d5e6f7a8');
    expect(invalidMessage(() => create('', 'events', v1('Event', 'e', { involvedObject: { kind: 'Pod', name: 'web', namespace: 'other' } })))).toBe(
      'Event "e" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace',
    );
    expect(strategyFor(resourceType('', 'events')).selectableFields?.(ev)['involvedObject.name']).toBe('web');
  });

  it('applies the strict events.k8s.io rules', () => {
    const ev: KubeObject = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e' }, type: 'Odd', reason: 'R' };
    expect(invalidMessage(() => create('events.k8s.io', 'events', ev))).toBe(
      'Event.events.k8s.io "e" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: Odd]',
    );
    const timed = { ...ev, type: 'Normal', eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'kubelet', reportingInstance: 'node-1' };
    expect(invalidMessage(() => create('events.k8s.io', 'events', timed))).toBe('Event.events.k8s.io "e" is invalid: action: Required value');
    expect(create('events.k8s.io', 'events', { ...timed, action: 'Started' }).metadata.name).toBe('e');
  });
});

describe('ReplicationController and PodTemplate', () => {
  it('defaults the selector and labels from the template', () => {
    const rc = create('', 'replicationcontrollers', v1('ReplicationController', 'rc', { spec: { template: podTemplate({ app: 'rc' }) } }));
    expect((rc.spec as Obj).selector).toEqual({ app: 'rc' });
    expect((rc.spec as Obj).replicas).toBe(1);
    expect(rc.metadata.labels).toEqual({ app: 'rc' });
    expect(rc.metadata.generation).toBe(1);
    expect(strategyFor(resourceType('', 'replicationcontrollers')).scale?.selector(rc)).toBe('app=rc');
  });

  it('requires a selector matching the template', () => {
    expect(invalidMessage(() => create('', 'replicationcontrollers', v1('ReplicationController', 'rc', { spec: { selector: { app: 'x' }, template: podTemplate({ app: 'y' }) } })))).toBe(
      'ReplicationController "rc" is invalid: spec.template.metadata.labels: Invalid value: {"app":"y"}: `selector` does not match template `labels`',
    );
  });

  it('validates PodTemplates without the restartPolicy rule', () => {
    const pt = create('', 'podtemplates', v1('PodTemplate', 'pt', { template: podTemplate({}, { restartPolicy: 'Never' }) }));
    expect(pt.metadata.generation).toBe(1);
    expect(invalidMessage(() => create('', 'podtemplates', v1('PodTemplate', 'pt', { template: { spec: { containers: [] } } })))).toBe(
      'PodTemplate "pt" is invalid: template.spec.containers: Required value',
    );
  });
});

describe('LimitRange and ResourceQuota', () => {
  it('defaults container limits and requests from max and default', () => {
    const lr = create('', 'limitranges', v1('LimitRange', 'lr', { spec: { limits: [{ type: 'Container', max: { cpu: '2' }, default: { memory: '256Mi' } }] } }));
    expect((lr.spec as Obj).limits[0].default).toEqual({ memory: '256Mi', cpu: '2' });
    expect((lr.spec as Obj).limits[0].defaultRequest).toEqual({ memory: '256Mi', cpu: '2' });
    expect(invalidMessage(() => create('', 'limitranges', v1('LimitRange', 'lr', { spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }] } })))).toMatch(
      /spec.limits\[0\].min\[cpu\]: Invalid value: "2": min value 2 is greater than max value 1/,
    );
  });

  it('keeps quota status for the controller and validates resource names', () => {
    const rq = create('', 'resourcequotas', v1('ResourceQuota', 'q', { spec: { hard: { pods: '10', 'requests.cpu': '4' } }, status: { used: { pods: '99' } } }));
    expect(rq.status).toBeUndefined();
    expect(invalidMessage(() => create('', 'resourcequotas', v1('ResourceQuota', 'q', { spec: { hard: { widgets: '1' } } })))).toBe(
      'ResourceQuota "q" is invalid: spec.hard[widgets]: Invalid value: "widgets": must be a standard resource for quota',
    );
  });
});
