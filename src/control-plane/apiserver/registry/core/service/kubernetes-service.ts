// What kube-apiserver's "kubernetes service controller" (pkg/controlplane/controller/kubernetesservice) and its
// endpoint reconciler write at start: the default/kubernetes Service (the first IP of the service range, 443 →
// the secure port), its Endpoints (marked skip-mirror) and the EndpointSlice the reconciler derives from them.
import type { KubeObject } from '../../../../../shared/api/types';

/** The API server's advertise address and secure port, as the kubelets dial them (kubelet/connection.ts). */
export const apiserverAdvertiseAddress = '192.168.49.1';
export const apiserverSecurePort = 8443;
/** The first address of 10.96.0.0/12. */
export const kubernetesServiceIP = '10.96.0.1';

export function kubernetesServiceObjects(): KubeObject[] {
  const service: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: kubernetesServiceIP,
      clusterIPs: [kubernetesServiceIP],
      ipFamilyPolicy: 'SingleStack',
      sessionAffinity: 'None',
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: apiserverSecurePort }],
    },
  };
  const endpoints: KubeObject = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: apiserverAdvertiseAddress }], ports: [{ name: 'https', port: apiserverSecurePort, protocol: 'TCP' }] }],
  } as KubeObject;
  const slice: KubeObject = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [apiserverAdvertiseAddress], conditions: { ready: true } }],
    ports: [{ name: 'https', port: apiserverSecurePort, protocol: 'TCP' }],
  } as KubeObject;
  return [service, endpoints, slice];
}
