// The IngressClass minikube's "ingress" addon installs with ingress-nginx: class "nginx", controller
// k8s.io/ingress-nginx, marked the cluster's default (so the DefaultIngressClass admission plugin gives it to an
// Ingress created without a class). The addon manager keeps it (mode Reconcile): a missing one is recreated at start.
import type { IngressClass } from 'kubernetes-types/networking/v1';
import { IsDefaultIngressClassAnnotation } from '../../apiserver/admission/default-ingress-class';

export const IngressNginxClassName = 'nginx';
export const IngressNginxController = 'k8s.io/ingress-nginx';
/**
 * The address ingress-nginx reports in status.loadBalancer.ingress: on minikube the node's IP
 * (192.168.49.2, node-1's InternalIP here), where the controller's hostPorts 80/443 listen.
 */
export const IngressNginxAddress = '192.168.49.2';

export function ingressNginxClass(): IngressClass & { apiVersion: 'networking.k8s.io/v1'; kind: 'IngressClass' } {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: {
      name: IngressNginxClassName,
      labels: {
        'addonmanager.kubernetes.io/mode': 'Reconcile',
        'app.kubernetes.io/component': 'controller',
        'app.kubernetes.io/instance': 'ingress-nginx',
        'app.kubernetes.io/name': 'ingress-nginx',
      },
      annotations: { [IsDefaultIngressClassAnnotation]: 'true' },
    },
    spec: { controller: IngressNginxController },
  };
}
