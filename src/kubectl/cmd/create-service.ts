// kubectl create service clusterip|nodeport NAME --tcp=port[:targetPort]… (pkg/cmd/create/create_service.go,
// v1.32): a Service with selector and label app=NAME, one TCP port per --tcp named "port-targetPort".
import type { KubeObject } from '../../shared/api/types';
import { isValidPortName, isValidPortNum } from '../../shared/lib/validation';
import type { CommandSpec, FlagValues, KubectlEnv, CommandIO } from '../cli/command';
import { CommandError } from '../resource-builder';
import { arrayFlag, dryRunFlag, fieldManagerFlag, guarded, intFlag, nameFromCommandArgs, printFlags, runTypedCreate, saveConfigFlag, stringFlag, validateFlag } from './create-common';

const tcpFlag = { name: 'tcp', type: 'stringSlice' as const, default: [], usage: "Port pairs can be specified as '<port>:<targetPort>'." };
const common = [...printFlags, dryRunFlag, fieldManagerFlag('kubectl-create'), saveConfigFlag, tcpFlag, validateFlag];

export const createServiceClusterIPCommand: CommandSpec = {
  path: ['create', 'service', 'clusterip'],
  use: 'clusterip NAME [--tcp=<port>:<targetPort>] [--dry-run=server|client|none]',
  short: 'Create a ClusterIP service',
  long: 'Create a ClusterIP service with the specified name.',
  example:
    '  # Create a new ClusterIP service named my-cs\n  kubectl create service clusterip my-cs --tcp=5678:8080\n  \n  # Create a new ClusterIP service named my-cs (in headless mode)\n  kubectl create service clusterip my-cs --clusterip="None"',
  flags: [...common, { name: 'clusterip', type: 'string', default: '', usage: "Assign your own ClusterIP or set to 'None' for a 'headless' service (no loadbalancing)." }],
  run: (env, args, flags, io) => guarded(io, 'create service clusterip', () => runCreateService(env, args, flags, io, 'ClusterIP')),
};

export const createServiceNodePortCommand: CommandSpec = {
  path: ['create', 'service', 'nodeport'],
  use: 'nodeport NAME [--tcp=port:targetPort] [--dry-run=server|client|none]',
  short: 'Create a NodePort service',
  long: 'Create a NodePort service with the specified name.',
  example: '  # Create a new NodePort service named my-ns\n  kubectl create service nodeport my-ns --tcp=5678:8080',
  flags: [...common, { name: 'node-port', type: 'int', default: 0, usage: 'Port used to expose the service on each node in a cluster.' }],
  run: (env, args, flags, io) => guarded(io, 'create service nodeport', () => runCreateService(env, args, flags, io, 'NodePort')),
};

function runCreateService(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO, type: 'ClusterIP' | 'NodePort'): number {
  const name = nameFromCommandArgs(args, flags);
  const clusterIP = type === 'ClusterIP' ? stringFlag(flags, 'clusterip') : '';
  const tcp = arrayFlag(flags, 'tcp');
  if (clusterIP === 'None' && type !== 'ClusterIP') throw new CommandError('ClusterIP=None can only be used with ClusterIP service type');
  if (clusterIP !== 'None' && tcp.length === 0) throw new CommandError('at least one tcp port specifier must be provided');
  const nodePort = type === 'NodePort' ? intFlag(flags, 'node-port', 0) : 0;
  const service = buildService(name, type, tcp, clusterIP, nodePort, env.namespaceExplicit ? env.namespace : '');
  return runTypedCreate(env, env.namespace, flags, io, { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true }, service, (m) => `failed to create ${type} service: ${m}`);
}

/** createService(): the corev1.Service in Go field order. */
export function buildService(name: string, type: string, tcp: string[], clusterIP: string, nodePort: number, namespace: string): KubeObject {
  const ports = tcp.map((spec) => {
    const [port, targetPort] = parsePorts(spec);
    return { name: spec.replace(/:/g, '-'), protocol: 'TCP', port, targetPort, ...(nodePort ? { nodePort } : {}) };
  });
  return {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: { name, ...(namespace ? { namespace } : {}), creationTimestamp: null as unknown as string, labels: { app: name } },
    spec: { ...(ports.length > 0 ? { ports } : {}), selector: { app: name }, ...(clusterIP ? { clusterIP } : {}), type },
    status: { loadBalancer: {} },
  };
}

/** parsePorts: "port" or "port:targetPort" (a number or a port name). */
export function parsePorts(spec: string): [number, number | string] {
  const parts = spec.split(':');
  const port = parsePort(parts[0]);
  if (parts.length === 1) return [port, port];
  const target = parts[1];
  if (!/^[+-]?\d+$/.test(target)) {
    const errs = isValidPortName(target);
    if (errs.length > 0) throw new CommandError(errs.join(','));
    return [port, target];
  }
  const n = Number(target);
  const errs = isValidPortNum(n);
  if (errs.length > 0) throw new CommandError(errs.join(','));
  return [port, n];
}

/** utilsnet.ParsePort(s, allowZero=true): strconv.ParseUint(s, 10, 16). */
function parsePort(s: string): number {
  if (!/^\d+$/.test(s)) throw new CommandError(`strconv.ParseUint: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (n > 65535) throw new CommandError(`strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}
