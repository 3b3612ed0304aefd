// The parts of describe.go that pods and every pod template share: the Containers sections (image, ports,
// command, state, resources, probes, environment, mounts), Volumes, and DescribePodTemplate.
import type { Container, ContainerState, ContainerStatus, EnvVar, Pod, PodTemplateSpec, Probe, ResourceRequirements, TopologySpreadConstraint, Volume } from 'kubernetes-types/core/v1';
import { canonicalQuantity, parseQuantity, toMillis, toScaledBigInt } from '../../shared/lib/quantity';
import { formatLabelSelector } from '../../shared/lib/labels';
import {
  byteOrder,
  LEVEL_0,
  LEVEL_1,
  LEVEL_2,
  LEVEL_3,
  printAnnotationsMultiline,
  printBool,
  printLabelsMultiline,
  printTolerationsMultiline,
  rfc1123z,
  stringOrNone,
  type PrefixWriter,
} from './writer';

type EnvResolver = ((e: EnvVar) => string) | undefined;

/** Quantity.String() of a stored value (already canonical; re-serialised defensively). */
export function quantityString(v: unknown): string {
  try {
    return canonicalQuantity(String(v));
  } catch {
    return String(v);
  }
}

/** Go's %v of a string slice: "[a b c]". */
export function goSlice(items: readonly unknown[] | undefined): string {
  return `[${(items ?? []).map(String).join(' ')}]`;
}

export function describeContainers(
  label: string,
  containers: Container[],
  statuses: ContainerStatus[] | undefined,
  resolve: EnvResolver,
  w: PrefixWriter,
  space: string,
): void {
  const byName = new Map((statuses ?? []).map((s) => [s.name, s]));
  w.write(LEVEL_0, `${space}${label}:${containers.length === 0 ? ' <none>' : ''}\n`);
  for (const c of containers) {
    const status = byName.get(c.name);
    describeContainerBasicInfo(c, status, space, w);
    describeContainerCommand(c, w);
    if (status) describeContainerState(status, w);
    describeResources(c.resources, w, LEVEL_2);
    describeContainerProbe(c, w);
    if (c.envFrom?.length) describeContainerEnvFrom(c, w);
    describeContainerEnvVars(c, resolve, w);
    describeContainerVolumes(c, w);
  }
}

function describeContainerBasicInfo(c: Container, status: ContainerStatus | undefined, space: string, w: PrefixWriter): void {
  w.write(LEVEL_1, `${space ? ' ' : ''}${c.name}:\n`);
  if (status) w.write(LEVEL_2, `Container ID:\t${status.containerID ?? ''}\n`);
  w.write(LEVEL_2, `Image:\t${c.image ?? ''}\n`);
  if (status) w.write(LEVEL_2, `Image ID:\t${status.imageID ?? ''}\n`);
  const ports = (c.ports ?? []).map((p) => `${p.containerPort}/${p.protocol ?? ''}`).join(', ');
  if (ports.includes(',')) w.write(LEVEL_2, `Ports:\t${ports}\n`);
  else w.write(LEVEL_2, `Port:\t${stringOrNone(ports)}\n`);
  const hostPorts = (c.ports ?? []).map((p) => `${p.hostPort ?? 0}/${p.protocol ?? ''}`).join(', ');
  if (hostPorts.includes(',')) w.write(LEVEL_2, `Host Ports:\t${hostPorts}\n`);
  else w.write(LEVEL_2, `Host Port:\t${stringOrNone(hostPorts)}\n`);
  const seccomp = c.securityContext?.seccompProfile;
  if (seccomp) {
    w.write(LEVEL_2, `SeccompProfile:\t${seccomp.type}\n`);
    if (seccomp.type === 'Localhost') w.write(LEVEL_3, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
  }
}

function describeContainerCommand(c: Container, w: PrefixWriter): void {
  if (c.command?.length) {
    w.write(LEVEL_2, 'Command:\n');
    for (const part of c.command) for (const s of part.split('\n')) w.write(LEVEL_3, `${s}\n`);
  }
  if (c.args?.length) {
    w.write(LEVEL_2, 'Args:\n');
    for (const arg of c.args) for (const s of arg.split('\n')) w.write(LEVEL_3, `${s}\n`);
  }
}

export function describeResources(resources: ResourceRequirements | undefined, w: PrefixWriter, level: number): void {
  if (!resources) return;
  const limits = resources.limits ?? {};
  const requests = resources.requests ?? {};
  if (Object.keys(limits).length) w.write(level, 'Limits:\n');
  for (const name of Object.keys(limits).sort(byteOrder)) w.write(level + 1, `${name}:\t${quantityString(limits[name])}\n`);
  if (Object.keys(requests).length) w.write(level, 'Requests:\n');
  for (const name of Object.keys(requests).sort(byteOrder)) w.write(level + 1, `${name}:\t${quantityString(requests[name])}\n`);
}

function describeContainerState(status: ContainerStatus, w: PrefixWriter): void {
  describeStatus('State', status.state ?? {}, w);
  if (status.lastState?.terminated) describeStatus('Last State', status.lastState, w);
  w.write(LEVEL_2, `Ready:\t${printBool(status.ready)}\n`);
  w.write(LEVEL_2, `Restart Count:\t${status.restartCount ?? 0}\n`);
}

function describeStatus(name: string, state: ContainerState, w: PrefixWriter): void {
  if (state.running) {
    w.write(LEVEL_2, `${name}:\tRunning\n`);
    w.write(LEVEL_3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
  } else if (state.waiting) {
    w.write(LEVEL_2, `${name}:\tWaiting\n`);
    if (state.waiting.reason) w.write(LEVEL_3, `Reason:\t${state.waiting.reason}\n`);
  } else if (state.terminated) {
    const t = state.terminated;
    w.write(LEVEL_2, `${name}:\tTerminated\n`);
    if (t.reason) w.write(LEVEL_3, `Reason:\t${t.reason}\n`);
    if (t.message) w.write(LEVEL_3, `Message:\t${t.message}\n`);
    w.write(LEVEL_3, `Exit Code:\t${t.exitCode}\n`);
    if ((t.signal ?? 0) > 0) w.write(LEVEL_3, `Signal:\t${t.signal}\n`);
    w.write(LEVEL_3, `Started:\t${rfc1123z(t.startedAt)}\n`);
    w.write(LEVEL_3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
  } else {
    w.write(LEVEL_2, `${name}:\tWaiting\n`);
  }
}

function describeContainerProbe(c: Container, w: PrefixWriter): void {
  if (c.livenessProbe) w.write(LEVEL_2, `Liveness:\t${describeProbe(c.livenessProbe)}\n`);
  if (c.readinessProbe) w.write(LEVEL_2, `Readiness:\t${describeProbe(c.readinessProbe)}\n`);
  if (c.startupProbe) w.write(LEVEL_2, `Startup:\t${describeProbe(c.startupProbe)}\n`);
}

/** DescribeProbe. */
export function describeProbe(p: Probe): string {
  const attrs = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 0}s period=${p.periodSeconds ?? 0}s #success=${p.successThreshold ?? 0} #failure=${p.failureThreshold ?? 0}`;
  if (p.exec) return `exec ${goSlice(p.exec.command)} ${attrs}`;
  if (p.httpGet) {
    const port = p.httpGet.port === undefined ? '' : String(p.httpGet.port);
    const host = p.httpGet.host ?? '';
    const hostPort = port ? `${host.includes(':') ? `[${host}]` : host}:${port}` : host;
    const scheme = (p.httpGet.scheme ?? '').toLowerCase();
    const path = p.httpGet.path ?? '';
    // net/url's String(): scheme://host/path, with "//" only when there is a scheme or host.
    const url = `${scheme ? `${scheme}:` : ''}${scheme || hostPort ? `//${hostPort}` : ''}${path && !path.startsWith('/') && hostPort ? `/${path}` : path}`;
    return `http-get ${url} ${attrs}`;
  }
  if (p.tcpSocket) return `tcp-socket ${p.tcpSocket.host ?? ''}:${String(p.tcpSocket.port)} ${attrs}`;
  if (p.grpc) return `grpc <pod>:${p.grpc.port} ${p.grpc.service ?? ''} ${attrs}`;
  return `unknown ${attrs}`;
}

function describeContainerEnvFrom(c: Container, w: PrefixWriter): void {
  w.write(LEVEL_2, `Environment Variables from:${c.envFrom?.length ? '' : '\t<none>'}\n`);
  for (const e of c.envFrom ?? []) {
    const from = e.configMapRef ? 'ConfigMap' : e.secretRef ? 'Secret' : '';
    const ref = e.configMapRef ?? e.secretRef;
    const optional = ref?.optional === true;
    if (!e.prefix) w.write(LEVEL_3, `${ref?.name ?? ''}\t${from}\tOptional: ${optional}\n`);
    else w.write(LEVEL_3, `${ref?.name ?? ''}\t${from} with prefix '${e.prefix}'\tOptional: ${optional}\n`);
  }
}

function describeContainerEnvVars(c: Container, resolve: EnvResolver, w: PrefixWriter): void {
  w.write(LEVEL_2, `Environment:${c.env?.length ? '' : '\t<none>'}\n`);
  for (const e of c.env ?? []) {
    if (!e.valueFrom) {
      (e.value ?? '').split('\n').forEach((s, i) => w.write(LEVEL_3, i === 0 ? `${e.name}:\t${s}\n` : `\t${s}\n`));
      continue;
    }
    const vf = e.valueFrom;
    if (vf.fieldRef) {
      w.write(LEVEL_3, `${e.name}:\t${resolve ? resolve(e) : ''} (${vf.fieldRef.apiVersion ?? ''}:${vf.fieldRef.fieldPath})\n`);
    } else if (vf.resourceFieldRef) {
      let value = containerResourceValue(vf.resourceFieldRef, c);
      const resource = vf.resourceFieldRef.resource;
      if (value === '0' && (resource === 'limits.cpu' || resource === 'limits.memory')) value = 'node allocatable';
      w.write(LEVEL_3, `${e.name}:\t${value} (${resource})\n`);
    } else if (vf.secretKeyRef) {
      w.write(LEVEL_3, `${e.name}:\t<set to the key '${vf.secretKeyRef.key}' in secret '${vf.secretKeyRef.name ?? ''}'>\tOptional: ${vf.secretKeyRef.optional === true}\n`);
    } else if (vf.configMapKeyRef) {
      w.write(LEVEL_3, `${e.name}:\t<set to the key '${vf.configMapKeyRef.key}' of config map '${vf.configMapKeyRef.name ?? ''}'>\tOptional: ${vf.configMapKeyRef.optional === true}\n`);
    }
  }
}

/** resourcehelper.ExtractContainerResourceValue: ceil(value / divisor) of the container's own limit or request. */
function containerResourceValue(ref: { resource: string; divisor?: unknown }, c: Container): string {
  const [kind, name] = ref.resource.split('.') as ['limits' | 'requests', string];
  try {
    const raw = c.resources?.[kind]?.[name];
    const q = parseQuantity(raw === undefined ? '0' : String(raw));
    const divisor = parseQuantity(ref.divisor === undefined || String(ref.divisor) === '0' ? '1' : String(ref.divisor));
    if (name === 'cpu') return String(Math.ceil(toMillis(q) / toMillis(divisor)));
    const value = toScaledBigInt(q, 0);
    const div = toScaledBigInt(divisor, 0);
    return String((value + div - 1n) / div);
  } catch {
    return '';
  }
}

function describeContainerVolumes(c: Container, w: PrefixWriter): void {
  const none = c.volumeMounts?.length ? '' : '\t<none>';
  w.write(LEVEL_2, `Mounts:${none}\n`);
  const mounts = [...(c.volumeMounts ?? [])].sort((a, b) => byteOrder(a.mountPath, b.mountPath));
  for (const m of mounts) {
    const flags = [m.readOnly ? 'ro' : 'rw'];
    if (m.subPath) flags.push(`path=${JSON.stringify(m.subPath)}`);
    w.write(LEVEL_3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
  }
  if (c.volumeDevices?.length) {
    w.write(LEVEL_2, `Devices:${none}\n`);
    for (const d of [...c.volumeDevices].sort((a, b) => byteOrder(a.devicePath, b.devicePath))) w.write(LEVEL_3, `${d.devicePath} from ${d.name}\n`);
  }
}

/** EnvValueRetriever: fieldpath.ExtractFieldPathAsString, which only knows metadata fields. */
export function envValueRetriever(pod: Pod): (e: EnvVar) => string {
  return (e) => {
    const path = e.valueFrom?.fieldRef?.fieldPath ?? '';
    const meta = pod.metadata ?? {};
    const sub = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
    if (sub) return (sub[1] === 'labels' ? meta.labels : meta.annotations)?.[sub[2]] ?? '';
    switch (path) {
      case 'metadata.name':
        return meta.name ?? '';
      case 'metadata.namespace':
        return meta.namespace ?? '';
      case 'metadata.uid':
        return meta.uid ?? '';
      case 'metadata.labels':
        return formatMap(meta.labels);
      case 'metadata.annotations':
        return formatMap(meta.annotations);
      default:
        return '';
    }
  };
}

/** fieldpath.FormatMap: key="value" lines, sorted. */
function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort(byteOrder)
    .map((k) => `${k}=${JSON.stringify(m![k])}`)
    .join('\n');
}

// ------------------------------------------------------------------ volumes

function vol(w: PrefixWriter, type: string, fields: [string, unknown][]): void {
  w.write(LEVEL_2, `Type:\t${type}\n${fields.map(([k, v]) => `    ${k}:\t${goValue(v)}\n`).join('')}`);
}

/** fmt's %v for the values volume printers show. */
export function goValue(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return goSlice(v);
  return String(v);
}

/** %v of a *bool: "<nil>" when unset (kubectl prints the pointer as such for projected sources). */
function goBoolPtr(v: boolean | undefined): string {
  return v === undefined || v === null ? '<nil>' : String(v);
}

export function describeVolumes(volumes: Volume[] | undefined, w: PrefixWriter, space: string): void {
  if (!volumes?.length) {
    w.write(LEVEL_0, `${space}Volumes:\t<none>\n`);
    return;
  }
  w.write(LEVEL_0, `${space}Volumes:\n`);
  for (const v of volumes) {
    w.write(LEVEL_1, `${space ? ' ' : ''}${v.name}:\n`);
    if (v.hostPath) vol(w, 'HostPath (bare host directory volume)', [['Path', v.hostPath.path], ['HostPathType', v.hostPath.type ?? '<none>']]);
    else if (v.emptyDir) {
      const limit = v.emptyDir.sizeLimit !== undefined && quantityString(v.emptyDir.sizeLimit) !== '0' ? quantityString(v.emptyDir.sizeLimit) : '<unset>';
      vol(w, "EmptyDir (a temporary directory that shares a pod's lifetime)", [['Medium', v.emptyDir.medium ?? ''], ['SizeLimit', limit]]);
    } else if (v.gitRepo) vol(w, 'GitRepo (a volume that is pulled from git when the pod is created)', [['Repository', v.gitRepo.repository], ['Revision', v.gitRepo.revision ?? '']]);
    else if (v.secret) vol(w, 'Secret (a volume populated by a Secret)', [['SecretName', v.secret.secretName ?? ''], ['Optional', v.secret.optional === true]]);
    else if (v.configMap) vol(w, 'ConfigMap (a volume populated by a ConfigMap)', [['Name', v.configMap.name ?? ''], ['Optional', v.configMap.optional === true]]);
    else if (v.nfs) vol(w, 'NFS (an NFS mount that lasts the lifetime of a pod)', [['Server', v.nfs.server], ['Path', v.nfs.path], ['ReadOnly', v.nfs.readOnly === true]]);
    else if (v.persistentVolumeClaim)
      vol(w, 'PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)', [['ClaimName', v.persistentVolumeClaim.claimName], ['ReadOnly', v.persistentVolumeClaim.readOnly === true]]);
    else if (v.ephemeral) w.write(LEVEL_2, 'Type:\tEphemeralVolume (an inline specification for a volume that gets created and deleted with the pod)\n');
    else if (v.downwardAPI) {
      w.write(LEVEL_2, 'Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n');
      for (const item of v.downwardAPI.items ?? []) {
        if (item.fieldRef) w.write(LEVEL_3, `${item.fieldRef.fieldPath} -> ${item.path}\n`);
        if (item.resourceFieldRef) w.write(LEVEL_3, `${item.resourceFieldRef.resource} -> ${item.path}\n`);
      }
    } else if (v.projected) {
      w.write(LEVEL_2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
      for (const s of v.projected.sources ?? []) {
        if (s.secret) w.write(LEVEL_2, `SecretName:\t${s.secret.name ?? ''}\n    SecretOptionalName:\t${goBoolPtr(s.secret.optional)}\n`);
        else if (s.downwardAPI) w.write(LEVEL_2, 'DownwardAPI:\ttrue\n');
        else if (s.configMap) w.write(LEVEL_2, `ConfigMapName:\t${s.configMap.name ?? ''}\n    ConfigMapOptional:\t${goBoolPtr(s.configMap.optional)}\n`);
        else if (s.serviceAccountToken) w.write(LEVEL_2, `TokenExpirationSeconds:\t${s.serviceAccountToken.expirationSeconds ?? 0}\n`);
      }
    } else if (v.csi) {
      w.write(LEVEL_2, `Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t${v.csi.driver}\n    FSType:\t${v.csi.fsType ?? ''}\n    ReadOnly:\t${v.csi.readOnly === true}\n`);
    } else if ((v as { image?: { reference?: string; pullPolicy?: string } }).image) {
      const image = (v as { image?: { reference?: string; pullPolicy?: string } }).image!;
      w.write(LEVEL_2, `Type:\tImage (a container image or OCI artifact)\n    Reference:\t${image.reference ?? ''}\n    PullPolicy:\t${image.pullPolicy ?? ''}\n`);
    } else w.write(LEVEL_1, '<unknown>\n');
  }
}

export function describeTopologySpreadConstraints(spec: { topologySpreadConstraints?: TopologySpreadConstraint[] }, w: PrefixWriter, space: string): void {
  const tscs = [...(spec.topologySpreadConstraints ?? [])].sort((a, b) => byteOrder(a.topologyKey, b.topologyKey));
  if (tscs.length === 0) return;
  w.write(LEVEL_0, `${space}Topology Spread Constraints:\t`);
  tscs.forEach((t, i) => {
    if (i !== 0) {
      w.write(LEVEL_0, space);
      w.write(LEVEL_0, '\t');
    }
    let text = `${t.topologyKey}:${t.whenUnsatisfiable} when max skew ${t.maxSkew} is exceeded`;
    if (t.labelSelector) text += ` for selector ${formatLabelSelector(t.labelSelector)}`;
    w.write(LEVEL_0, `${text}\n`);
  });
}

/** DescribePodTemplate. */
export function describePodTemplate(template: PodTemplateSpec | undefined, w: PrefixWriter): void {
  w.write(LEVEL_0, 'Pod Template:\n');
  if (!template) {
    w.write(LEVEL_1, '<unset>');
    return;
  }
  const spec = template.spec ?? { containers: [] };
  printLabelsMultiline(w, '  Labels', template.metadata?.labels);
  if (Object.keys(template.metadata?.annotations ?? {}).length) printAnnotationsMultiline(w, '  Annotations', template.metadata?.annotations);
  if (spec.serviceAccountName) w.write(LEVEL_1, `Service Account:\t${spec.serviceAccountName}\n`);
  if (spec.initContainers?.length) describeContainers('Init Containers', spec.initContainers, undefined, undefined, w, '  ');
  describeContainers('Containers', spec.containers ?? [], undefined, undefined, w, '  ');
  describeVolumes(spec.volumes, w, '  ');
  describeTopologySpreadConstraints(spec, w, '  ');
  if (spec.priorityClassName) w.write(LEVEL_1, `Priority Class Name:\t${spec.priorityClassName}\n`);
  printLabelsMultiline(w, '  Node-Selectors', spec.nodeSelector);
  printTolerationsMultiline(w, '  Tolerations', spec.tolerations);
}
