// kubectl cluster-info (k8s.io/kubectl/pkg/cmd/clusterinfo, v1.32): the API server's address, then every
// kube-system Service labelled kubernetes.io/cluster-service=true with its proxy URL, then the hint about
// `cluster-info dump`. Colour-free, as kubectl prints to a pipe.
import type { Service } from 'kubernetes-types/core/v1';
import type { CommandIO, CommandSpec, KubectlEnv } from '../cli/command';
import { checkErr } from './create-common';

/** The address kubeplay's API server answers at, as kubeconfig and cluster-info show it (kubeadm's port). */
export const kubeplayServerURL = 'https://127.0.0.1:6443';

export const clusterInfoCommand: CommandSpec = {
  path: ['cluster-info'],
  use: 'cluster-info',
  flagsInUseLine: true,
  short: 'Display cluster information',
  long: "Display addresses of the control plane and services with label kubernetes.io/cluster-service=true. To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.",
  example: '  # Print the address of the control plane and cluster services\n  kubectl cluster-info',
  flags: [],
  run: (env, _args, _flags, io) => runClusterInfo(env, io),
};

function runClusterInfo(env: KubectlEnv, io: CommandIO): number {
  // Only an explicit -n replaces kube-system.
  const namespace = env.namespaceExplicit ? env.namespace : 'kube-system';
  let error: unknown;
  try {
    const list = env.client.services.list({ namespace, labelSelector: 'kubernetes.io/cluster-service=true' });
    io.stdout(`Kubernetes control plane is running at ${kubeplayServerURL}`);
    for (const service of list.items as Service[]) io.stdout(`${service.metadata?.labels?.['kubernetes.io/name'] || service.metadata?.name} is running at ${serviceLink(service)}`);
  } catch (err) {
    error = err;
  }
  io.stdout('');
  io.stdout("To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.");
  return error === undefined ? 0 : checkErr(io, error);
}

function serviceLink(service: Service): string {
  const ingress = service.status?.loadBalancer?.ingress?.[0];
  if (ingress) {
    const ip = ingress.ip || ingress.hostname || '';
    return (service.spec?.ports ?? []).map((p) => `http://${ip}:${p.port} `).join('');
  }
  let name = service.metadata?.name ?? '';
  const port = service.spec?.ports?.[0];
  if (port) {
    const scheme = port.name === 'https' || port.port === 443 ? 'https' : '';
    // utilnet.JoinSchemeNamePort
    if (scheme) name = `${scheme}:${name}:${port.name ?? ''}`;
    else if (port.name) name = `${name}:${port.name}`;
  }
  return `${kubeplayServerURL}/api/v1/namespaces/${service.metadata?.namespace}/services/${name}/proxy`;
}
