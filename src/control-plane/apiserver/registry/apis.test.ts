// Networking, policy, autoscaling, RBAC, storage, coordination, discovery and scheduling strategies.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { strategyFor } from './strategies';
import { create, invalidMessage, resourceType, update } from './test-harness';

type Obj = Record<string, any>;

const obj = (apiVersion: string, kind: string, name: string, rest: Obj = {}): KubeObject => ({ apiVersion, kind, metadata: { name }, ...rest });

describe('Ingress', () => {
  const ing = (spec: Obj) => obj('networking.k8s.io/v1', 'Ingress', 'web', { spec });
  const path = (p: Obj) => ({ rules: [{ host: 'example.com', http: { paths: [{ path: '/', backend: { service: { name: 'web', port: { number: 80 } } }, ...p }] } }] });

  it('requires pathType (no default)', () => {
    expect(invalidMessage(() => create('networking.k8s.io', 'ingresses', ing(path({}))))).toBe(
      'Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified',
    );
    const ok = create('networking.k8s.io', 'ingresses', ing(path({ pathType: 'Prefix' })));
    expect(ok.metadata.generation).toBe(1);
  });

  it('checks path types, paths, hosts and backends', () => {
    expect(invalidMessage(() => create('networking.k8s.io', 'ingresses', ing(path({ pathType: 'Regex' }))))).toBe(
      'Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
    );
    expect(invalidMessage(() => create('networking.k8s.io', 'ingresses', ing(path({ pathType: 'Exact', path: 'api' }))))).toBe(
      'Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path',
    );
    expect(invalidMessage(() => create('networking.k8s.io', 'ingresses', ing({ rules: [{ host: '10.0.0.1' }] })))).toMatch(
      /^Ingress.networking.k8s.io "web" is invalid: \[?spec.rules\[0\].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address/,
    );
    expect(invalidMessage(() => create('networking.k8s.io', 'ingresses', ing(path({ pathType: 'Prefix', backend: { service: { name: 'web', port: {} } } }))))).toBe(
      'Ingress.networking.k8s.io "web" is invalid: spec.rules[0].http.paths[0].backend: Required value: port name or number is required',
    );
    expect(invalidMessage(() => create('networking.k8s.io', 'ingresses', ing({})))).toBe(
      'Ingress.networking.k8s.io "web" is invalid: spec.rules: Invalid value: []: either `defaultBackend` or `rules` must be specified',
    );
  });
});

describe('NetworkPolicy and IngressClass', () => {
  it('defaults policyTypes and port protocols', () => {
    const np = create('networking.k8s.io', 'networkpolicies', obj('networking.k8s.io/v1', 'NetworkPolicy', 'np', { spec: { podSelector: {}, egress: [{ ports: [{ port: 53 }] }] } }));
    expect((np.spec as Obj).policyTypes).toEqual(['Ingress', 'Egress']);
    expect((np.spec as Obj).egress[0].ports[0].protocol).toBe('TCP');
    const ingressOnly = create('networking.k8s.io', 'networkpolicies', obj('networking.k8s.io/v1', 'NetworkPolicy', 'np2', { spec: { podSelector: {} } }));
    expect((ingressOnly.spec as Obj).policyTypes).toEqual(['Ingress']);
  });

  it('needs a domain-prefixed controller that never changes', () => {
    expect(invalidMessage(() => create('networking.k8s.io', 'ingressclasses', obj('networking.k8s.io/v1', 'IngressClass', 'nginx', { spec: { controller: 'nginx' } })))).toBe(
      'IngressClass.networking.k8s.io "nginx" is invalid: spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
    );
    const ic = create('networking.k8s.io', 'ingressclasses', obj('networking.k8s.io/v1', 'IngressClass', 'nginx', { spec: { controller: 'k8s.io/ingress-nginx' } }));
    expect(invalidMessage(() => update('networking.k8s.io', 'ingressclasses', { ...ic, spec: { controller: 'example.com/other' } }, ic))).toBe(
      'IngressClass.networking.k8s.io "nginx" is invalid: spec.controller: Invalid value: "example.com/other": field is immutable',
    );
  });
});

describe('PodDisruptionBudget', () => {
  it('allows only one of minAvailable and maxUnavailable', () => {
    const pdb = (spec: Obj) => obj('policy/v1', 'PodDisruptionBudget', 'pdb', { spec: { selector: { matchLabels: { app: 'web' } }, ...spec } });
    expect(invalidMessage(() => create('policy', 'poddisruptionbudgets', pdb({ minAvailable: 1, maxUnavailable: 1 })))).toBe(
      'PodDisruptionBudget.policy "pdb" is invalid: spec: Invalid value: {"selector":{"matchLabels":{"app":"web"}},"minAvailable":1,"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set',
    );
    const ok = create('policy', 'poddisruptionbudgets', pdb({ minAvailable: '50%' }));
    expect(ok.metadata.generation).toBe(1);
    expect(update('policy', 'poddisruptionbudgets', { ...ok, spec: { ...(ok.spec as Obj), minAvailable: 2 } }, ok).metadata.generation).toBe(2);
  });
});

describe('HorizontalPodAutoscaler', () => {
  const hpa = (spec: Obj) =>
    obj('autoscaling/v2', 'HorizontalPodAutoscaler', 'web', { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec } });

  it('defaults minReplicas, the CPU metric and behavior rules', () => {
    const h = create('autoscaling', 'horizontalpodautoscalers', hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }));
    const spec = h.spec as Obj;
    expect(spec.minReplicas).toBe(1);
    expect(spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    expect(spec.behavior.scaleUp).toEqual({
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Max',
      policies: [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    });
    expect(spec.behavior.scaleDown).toEqual({ selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }], stabilizationWindowSeconds: 60 });
    expect(h.metadata.generation).toBeUndefined();
  });

  it('checks replica bounds and the target reference', () => {
    expect(invalidMessage(() => create('autoscaling', 'horizontalpodautoscalers', hpa({ minReplicas: 0 })))).toBe(
      'HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    );
    expect(invalidMessage(() => create('autoscaling', 'horizontalpodautoscalers', hpa({ minReplicas: 3, maxReplicas: 2 })))).toBe(
      'HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`',
    );
    expect(invalidMessage(() => create('autoscaling', 'horizontalpodautoscalers', hpa({ scaleTargetRef: { apiVersion: 'v1', kind: 'Deployment', name: 'web' } })))).toBe(
      'HorizontalPodAutoscaler.autoscaling "web" is invalid: spec.scaleTargetRef.apiVersion: Invalid value: "v1": apiVersion must specify API group',
    );
  });
});

describe('RBAC', () => {
  it('requires verbs and resources in rules', () => {
    const role = obj('rbac.authorization.k8s.io/v1', 'Role', 'r', { rules: [{ apiGroups: [''], resources: ['pods'] }] });
    expect(invalidMessage(() => create('rbac.authorization.k8s.io', 'roles', role))).toBe(
      'Role.rbac.authorization.k8s.io "r" is invalid: rules[0].verbs: Required value: verbs must contain at least one value',
    );
    const nonResource = obj('rbac.authorization.k8s.io/v1', 'Role', 'r', { rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] });
    expect(invalidMessage(() => create('rbac.authorization.k8s.io', 'roles', nonResource))).toBe(
      'Role.rbac.authorization.k8s.io "r" is invalid: rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
    );
  });

  it('defaults API groups in bindings and keeps roleRef fixed', () => {
    const rb = create(
      'rbac.authorization.k8s.io',
      'rolebindings',
      obj('rbac.authorization.k8s.io/v1', 'RoleBinding', 'rb', {
        roleRef: { kind: 'Role', name: 'r' },
        subjects: [
          { kind: 'User', name: 'alice' },
          { kind: 'ServiceAccount', name: 'default', namespace: 'default' },
        ],
      }),
    );
    expect(rb.roleRef).toEqual({ kind: 'Role', name: 'r', apiGroup: 'rbac.authorization.k8s.io' });
    expect((rb.subjects as Obj[]).map((s) => s.apiGroup)).toEqual(['rbac.authorization.k8s.io', '']);
    expect(invalidMessage(() => update('rbac.authorization.k8s.io', 'rolebindings', { ...rb, roleRef: { ...(rb.roleRef as Obj), name: 'other' } }, rb))).toBe(
      'RoleBinding.rbac.authorization.k8s.io "rb" is invalid: roleRef: Invalid value: {"kind":"Role","name":"other","apiGroup":"rbac.authorization.k8s.io"}: cannot change roleRef',
    );
  });

  it('requires namespaces for service accounts in cluster role bindings', () => {
    const crb = obj('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding', 'crb', { roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] });
    expect(invalidMessage(() => create('rbac.authorization.k8s.io', 'clusterrolebindings', crb))).toBe(
      'ClusterRoleBinding.rbac.authorization.k8s.io "crb" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value]',
    );
  });
});

describe('storage, coordination, discovery, scheduling', () => {
  it('defaults StorageClass and freezes its provisioner', () => {
    const sc = create('storage.k8s.io', 'storageclasses', obj('storage.k8s.io/v1', 'StorageClass', 'standard', { provisioner: 'rancher.io/local-path' }));
    expect(sc.reclaimPolicy).toBe('Delete');
    expect(sc.volumeBindingMode).toBe('Immediate');
    expect(invalidMessage(() => update('storage.k8s.io', 'storageclasses', { ...sc, provisioner: 'other.io/x' }, sc))).toBe(
      'StorageClass.storage.k8s.io "standard" is invalid: provisioner: Forbidden: updates to provisioner are forbidden.',
    );
  });

  it('requires a positive lease duration and conditional lease updates', () => {
    expect(invalidMessage(() => create('coordination.k8s.io', 'leases', obj('coordination.k8s.io/v1', 'Lease', 'l', { spec: { leaseDurationSeconds: 0 } })))).toBe(
      'Lease.coordination.k8s.io "l" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    );
    expect(strategyFor(resourceType('coordination.k8s.io', 'leases')).allowUnconditionalUpdate).toBe(false);
  });

  it('tracks EndpointSlice generation and its address type', () => {
    const eps = create(
      'discovery.k8s.io',
      'endpointslices',
      obj('discovery.k8s.io/v1', 'EndpointSlice', 'web-abc', { addressType: 'IPv4', endpoints: [{ addresses: ['10.244.0.5'] }], ports: [{ port: 80 }] }),
    );
    expect((eps.ports as Obj[])[0]).toEqual({ port: 80, protocol: 'TCP', name: '' });
    expect(eps.metadata.generation).toBe(1);
    expect(update('discovery.k8s.io', 'endpointslices', { ...eps, endpoints: [] }, eps).metadata.generation).toBe(2);
    expect(invalidMessage(() => update('discovery.k8s.io', 'endpointslices', { ...eps, addressType: 'IPv6', endpoints: [] }, eps))).toBe(
      'EndpointSlice.discovery.k8s.io "web-abc" is invalid: addressType: Invalid value: "IPv6": field is immutable',
    );
    expect(invalidMessage(() => create('discovery.k8s.io', 'endpointslices', obj('discovery.k8s.io/v1', 'EndpointSlice', 'x', { addressType: 'IPv4', endpoints: [{ addresses: ['127.0.0.1'] }] })))).toBe(
      'EndpointSlice.discovery.k8s.io "x" is invalid: endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    );
  });

  it('caps user PriorityClass values and freezes them', () => {
    expect(invalidMessage(() => create('scheduling.k8s.io', 'priorityclasses', obj('scheduling.k8s.io/v1', 'PriorityClass', 'huge', { value: 2000000000 })))).toBe(
      'PriorityClass.scheduling.k8s.io "huge" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
    );
    const pc = create('scheduling.k8s.io', 'priorityclasses', obj('scheduling.k8s.io/v1', 'PriorityClass', 'high', { value: 1000 }));
    expect(pc.preemptionPolicy).toBe('PreemptLowerPriority');
    expect(invalidMessage(() => update('scheduling.k8s.io', 'priorityclasses', { ...pc, value: 10 }, pc))).toBe(
      'PriorityClass.scheduling.k8s.io "high" is invalid: value: Forbidden: may not be changed in an update.',
    );
  });
});
