// kubectl expose (-f FILE | TYPE NAME) (k8s.io/kubectl/pkg/cmd/expose, v1.32): a Service for a deployment, replica
// set, replication controller, pod or service, with the selector and ports taken from the object (or --selector,
// --port), created as "kubectl-expose". Prints `service/nginx exposed`.
import type { KubeObject } from '../../shared/api/types';
import type { CommandIO, CommandSpec, FlagValues, KubectlEnv } from '../cli/command';
import { buildResources, CommandError, type ResourceInfo } from '../resource-builder';
import { boolFlag, checkErr, DryRun, dryRunStrategy, filenames, guarded, ObjectPrinter, stringFlag, visitErrors, withTypedLastApplied } from './create-common';
import { sortedRecord } from './create-configmap';

export const exposeCommand: CommandSpec = {
  path: ["expose"],
  use: "expose (-f FILENAME | TYPE NAME) [--port=port] [--protocol=TCP|UDP|SCTP] [--target-port=number-or-name] [--name=name] [--external-ip=external-ip-of-service] [--type=type]",
  short: "Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service",
  long: "Expose a resource as a new Kubernetes service.\n\n Looks up a deployment, service, replica set, replication controller or pod by name and uses the selector for that resource as the selector for a new service on the specified port. A deployment or replica set will be exposed as a service only if its selector is convertible to a selector that service supports, i.e. when the selector contains only the matchLabels component. Note that if no port is specified via --port and the exposed resource has multiple ports, all will be re-used by the new service. Also if no labels are specified, the new service will re-use the labels from the resource it exposes.\n\n Possible resources include (case insensitive):\n\n pod (po), service (svc), replicationcontroller (rc), deployment (deploy), replicaset (rs)",
  example: "  # Create a service for a replicated nginx, which serves on port 80 and connects to the containers on port 8000\n  kubectl expose rc nginx --port=80 --target-port=8000\n  \n  # Create a service for a replication controller identified by type and name specified in \"nginx-controller.yaml\", which serves on port 80 and connects to the containers on port 8000\n  kubectl expose -f nginx-controller.yaml --port=80 --target-port=8000\n  \n  # Create a service for a pod valid-pod, which serves on port 444 with the name \"frontend\"\n  kubectl expose pod valid-pod --port=444 --name=frontend\n  \n  # Create a second service based on the above service, exposing the container port 8443 as port 443 with the name \"nginx-https\"\n  kubectl expose service nginx --port=443 --target-port=8443 --name=nginx-https\n  \n  # Create a service for a replicated streaming application on port 4100 balancing UDP traffic and named 'video-stream'.\n  kubectl expose rc streamer --port=4100 --protocol=UDP --name=video-stream\n  \n  # Create a service for a replicated nginx using replica set, which serves on port 80 and connects to the containers on port 8000\n  kubectl expose rs nginx --port=80 --target-port=8000\n  \n  # Create a service for an nginx deployment, which serves on port 80 and connects to the containers on port 8000\n  kubectl expose deployment nginx --port=80 --target-port=8000",
  flags: [
    { name: "allow-missing-template-keys", type: 'bool', default: true, usage: "If true, ignore any errors in templates when a field or map key is missing in the template. Only applies to golang and jsonpath output formats." },
    { name: "cluster-ip", type: 'string', default: "", usage: "ClusterIP to be assigned to the service. Leave empty to auto-allocate, or set to 'None' to create a headless service." },
    { name: "dry-run", type: 'string', default: "none", noOptDefault: 'unchanged', usage: "Must be \"none\", \"server\", or \"client\". If client strategy, only print the object that would be sent, without sending it. If server strategy, submit server-side request without persisting the resource." },
    { name: "external-ip", type: 'string', default: "", usage: "Additional external IP address (not managed by Kubernetes) to accept for the service. If this IP is routed to a node, the service can be accessed by this IP in addition to its generated service IP." },
    { name: "field-manager", type: 'string', default: "kubectl-expose", usage: "Name of the manager used to track field ownership." },
    { name: "filename", shorthand: "f", type: 'stringSlice', default: [], usage: "Filename, directory, or URL to files identifying the resource to expose a service" },
    { name: "labels", shorthand: "l", type: 'string', default: "", usage: "Labels to apply to the service created by this call." },
    { name: "load-balancer-ip", type: 'string', default: "", usage: "IP to assign to the LoadBalancer. If empty, an ephemeral IP will be created and used (cloud-provider specific)." },
    { name: "name", type: 'string', default: "", usage: "The name for the newly created object." },
    { name: "output", shorthand: "o", type: 'string', default: "", usage: "Output format. One of: (json, yaml, name, go-template, go-template-file, template, templatefile, jsonpath, jsonpath-as-json, jsonpath-file)." },
    { name: "port", type: 'string', default: "", usage: "The port that the service should serve on. Copied from the resource being exposed, if unspecified" },
    { name: "protocol", type: 'string', default: "", usage: "The network protocol for the service to be created. Default is 'TCP'." },
    { name: "recursive", shorthand: "R", type: 'bool', default: false, usage: "Process the directory used in -f, --filename recursively. Useful when you want to manage related manifests organized within the same directory." },
    { name: "save-config", type: 'bool', default: false, usage: "If true, the configuration of current object will be saved in its annotation. Otherwise, the annotation will be unchanged. This flag is useful when you want to perform kubectl apply on this object in the future." },
    { name: "selector", type: 'string', default: "", usage: "A label selector to use for this service. Only equality-based selector requirements are supported. If empty (the default) infer the selector from the replication controller or replica set.)" },
    { name: "session-affinity", type: 'string', default: "", usage: "If non-empty, set the session affinity for the service to this; legal values: 'None', 'ClientIP'" },
    { name: "show-managed-fields", type: 'bool', default: false, usage: "If true, keep the managedFields when printing objects in JSON or YAML format." },
    { name: "target-port", type: 'string', default: "", usage: "Name or number for the port on the container that the service should direct traffic to. Optional." },
    { name: "type", type: 'string', default: "", usage: "Type for this service: ClusterIP, NodePort, LoadBalancer, or ExternalName. Default is 'ClusterIP'." },
  ],
  run: (env, args, flags, io) => guarded(io, 'expose', () => runExpose(env, args, flags, io)),
};

const exposable = ['ReplicationController', 'Service', 'Pod', 'Deployment.apps', 'ReplicaSet.apps'];

interface ExposeState {
  selector: string;
  port: string;
  ports: string;
  protocols: string;
  labels: string;
}

function runExpose(env: KubectlEnv, args: string[], flags: FlagValues, io: CommandIO): number {
  const dryRun = dryRunStrategy(flags);
  const printer = ObjectPrinter.create(stringFlag(flags, 'output'), 'exposed', { dryRun, showManagedFields: boolFlag(flags, 'show-managed-fields') });
  const built = buildResources(env, { args, filenames: filenames(flags), requireObject: true, latest: true });
  if (built.error) throw built.error;
  // The options persist from one object to the next, as in kubectl.
  const state: ExposeState = { selector: stringFlag(flags, 'selector'), port: stringFlag(flags, 'port'), ports: '', protocols: '', labels: stringFlag(flags, 'labels') };
  const errors: unknown[] = [...built.errors];
  for (const info of built.infos) {
    try {
      let service = exposeService(info, state, flags);
      if (dryRun === DryRun.Client) {
        if (env.namespaceExplicit) service = { ...service, metadata: { name: service.metadata.name, namespace: env.namespace, ...service.metadata } };
        printer.print(io, service, { typed: true });
        continue;
      }
      if (boolFlag(flags, 'save-config')) service = withTypedLastApplied(service);
      const res = env.client.handle<KubeObject>({
        verb: 'create',
        group: '',
        version: 'v1',
        resource: 'services',
        namespace: env.namespace,
        body: service,
        options: { fieldManager: stringFlag(flags, 'field-manager'), ...(dryRun === DryRun.Server ? { dryRun: true } : {}) },
      });
      for (const w of res.warnings ?? []) io.stderr(`Warning: ${w}`);
      printer.print(io, res.body);
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) return checkErr(io, visitErrors(errors));
  return 0;
}

function exposeService(info: ResourceInfo, state: ExposeState, flags: FlagValues): KubeObject {
  const obj = info.object!;
  const groupKind = info.rt.group ? `${info.rt.kind}.${info.rt.group}` : info.rt.kind;
  if (!exposable.includes(groupKind)) throw new CommandError(`cannot expose a ${groupKind}`);
  const defaultName = (info.name ?? '').slice(0, 63);
  if (!state.selector) state.selector = selectorFor(obj);
  const headless = stringFlag(flags, 'cluster-ip') === 'None';
  if (!state.port) {
    const ports = portsFor(obj);
    if (ports.length === 0) {
      if (!headless) throw new CommandError("couldn't find port via --port flag or introspection");
    } else if (ports.length === 1) state.port = ports[0];
    else state.ports = ports.join(',');
  }
  const protocols = protocolsFor(obj);
  const protocolList = Object.entries(protocols).flatMap(([port, ps]) => ps.map((p) => `${port}/${p}`));
  if (protocolList.length > 0) state.protocols = protocolList.join(',');
  if (!state.labels) state.labels = Object.entries(obj.metadata?.labels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
  return createService(defaultName, state, flags);
}

/** polymorphichelpers.MapBasedSelectorForObject. */
function selectorFor(obj: KubeObject): string {
  const spec = (obj.spec ?? {}) as { selector?: Record<string, unknown> & { matchLabels?: Record<string, string>; matchExpressions?: unknown[] } };
  const make = (m: Record<string, string>) => Object.entries(m).map(([k, v]) => `${k}=${v}`).join(',');
  const fail = (why: string) => new CommandError(`couldn't retrieve selectors via --selector flag or introspection: ${why}`);
  switch (obj.kind) {
    case 'ReplicationController':
      return make((spec.selector ?? {}) as Record<string, string>);
    case 'Pod':
      if (Object.keys(obj.metadata?.labels ?? {}).length === 0) throw fail('the pod has no labels and cannot be exposed');
      return make(obj.metadata.labels!);
    case 'Service':
      if (!spec.selector) throw fail('the service has no pod selector set');
      return make(spec.selector as Record<string, string>);
    case 'Deployment':
    case 'ReplicaSet': {
      const what = obj.kind === 'Deployment' ? 'deployment' : 'replicaset';
      if (!spec.selector?.matchLabels || Object.keys(spec.selector.matchLabels).length === 0) throw fail(`invalid ${what}: no selectors, therefore cannot be exposed`);
      if (spec.selector.matchExpressions?.length) throw fail(`couldn't convert expressions - "${goStructList(spec.selector.matchExpressions)}" to map-based selector format`);
      return make(spec.selector.matchLabels);
    }
    default:
      throw fail(`cannot extract pod selector from *v1.${obj.kind}`);
  }
}

/** %+v of []metav1.LabelSelectorRequirement. */
function goStructList(reqs: unknown[]): string {
  return `[${reqs.map((r) => { const x = r as { key?: string; operator?: string; values?: string[] }; return `{Key:${x.key ?? ''} Operator:${x.operator ?? ''} Values:[${(x.values ?? []).join(' ')}]}`; }).join(' ')}]`;
}

function podSpecOf(obj: KubeObject): { containers?: { ports?: { containerPort: number; protocol?: string }[] }[] } {
  if (obj.kind === 'Pod') return (obj.spec ?? {}) as never;
  return (((obj.spec ?? {}) as { template?: { spec?: unknown } }).template?.spec ?? {}) as never;
}

/** polymorphichelpers.PortsForObject: the distinct container ports (service ports for a Service), in order. */
function portsFor(obj: KubeObject): string[] {
  const out: string[] = [];
  if (obj.kind === 'Service') {
    for (const p of ((obj.spec ?? {}) as { ports?: { port: number }[] }).ports ?? []) if (!out.includes(String(p.port))) out.push(String(p.port));
    return out;
  }
  for (const c of podSpecOf(obj).containers ?? []) for (const p of c.ports ?? []) if (!out.includes(String(p.containerPort))) out.push(String(p.containerPort));
  return out;
}

/** polymorphichelpers.MultiProtocolsForObject: port → protocols. */
function protocolsFor(obj: KubeObject): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (port: number, protocol: string | undefined) => (out[String(port)] ??= []).push(protocol || 'TCP');
  if (obj.kind === 'Service') {
    for (const p of ((obj.spec ?? {}) as { ports?: { port: number; protocol?: string }[] }).ports ?? []) add(p.port, p.protocol);
    return out;
  }
  for (const c of podSpecOf(obj).containers ?? []) for (const p of c.ports ?? []) add(p.containerPort, p.protocol);
  return out;
}

/** expose.go parseLabels: k=v,k=v. */
function parseLabelSpec(spec: string): Record<string, string> {
  if (!spec) throw new CommandError('no label spec passed');
  const out: Record<string, string> = {};
  for (const part of spec.split(',')) {
    const kv = part.split('=');
    if (kv.length !== 2) throw new CommandError(`unexpected label spec: ${part}`);
    if (!kv[0]) throw new CommandError('unexpected empty label key');
    out[kv[0]] = kv[1];
  }
  return sortedRecord(out);
}

/** expose.go createService: the corev1.Service in Go field order. */
function createService(defaultName: string, state: ExposeState, flags: FlagValues): KubeObject {
  if (!state.selector) throw new CommandError('selector must be specified');
  const selector = parseLabelSpec(state.selector);
  const labels = state.labels ? parseLabelSpec(state.labels) : undefined;
  const name = stringFlag(flags, 'name') || defaultName;
  if (!name) throw new CommandError('name must be specified');
  const portProtocols: Record<string, string[]> = {};
  if (state.protocols) {
    for (const pp of state.protocols.split(',')) {
      const [port, protocol] = pp.split('/');
      (portProtocols[port] ??= []).push(protocol);
    }
  }
  const portString = state.ports || state.port;
  const flagProtocol = stringFlag(flags, 'protocol');
  const ports: Record<string, unknown>[] = [];
  if (portString) {
    const list = portString.split(',');
    list.forEach((p, i) => {
      if (!/^[+-]?\d+$/.test(p)) throw new CommandError(`strconv.Atoi: parsing ${JSON.stringify(p)}: invalid syntax`);
      const port = Number(p);
      const portName = list.length > 1 ? `port-${i + 1}` : '';
      let protocol = flagProtocol;
      if (!protocol && Object.keys(portProtocols).length === 0) protocol = 'TCP';
      else if (!protocol) {
        protocol = 'TCP';
        const found = portProtocols[p];
        if (found?.length === 1) protocol = found[0];
        else if (found && found.length > 1) {
          for (const pr of found) ports.push({ name: `port-${i + 1}-${pr.toLowerCase()}`, protocol: pr, port });
          return;
        }
      }
      ports.push({ ...(portName ? { name: portName } : {}), protocol, port });
    });
  }
  const targetPortFlag = stringFlag(flags, 'target-port');
  for (const p of ports) {
    if (!Object.hasOwn(p, 'targetPort')) p.targetPort = targetPortFlag ? (/^\d+$/.test(targetPortFlag) ? Number(targetPortFlag) : targetPortFlag) : p.port;
  }
  const spec: Record<string, unknown> = {};
  if (ports.length > 0) spec.ports = ports;
  spec.selector = selector;
  const clusterIP = stringFlag(flags, 'cluster-ip');
  if (clusterIP) spec.clusterIP = clusterIP;
  const type = stringFlag(flags, 'type');
  if (type) spec.type = type;
  const externalIP = stringFlag(flags, 'external-ip');
  if (externalIP) spec.externalIPs = [externalIP];
  const affinity = stringFlag(flags, 'session-affinity');
  if (affinity) {
    if (affinity !== 'None' && affinity !== 'ClientIP') throw new CommandError(`unknown session affinity: ${affinity}`);
    spec.sessionAffinity = affinity;
  }
  if (type === 'LoadBalancer' && stringFlag(flags, 'load-balancer-ip')) spec.loadBalancerIP = stringFlag(flags, 'load-balancer-ip');
  return {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: { name, creationTimestamp: null as unknown as string, ...(labels ? { labels } : {}) },
    spec,
    status: { loadBalancer: {} },
  };
}
