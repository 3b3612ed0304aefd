// KubectlNodes over a whole Cluster: what kubectl reaches through the API server's proxy to the kubelets —
// container logs (src/kubectl/cli/nodes.ts), exec inside a running container, and the simulated
// metrics-server's usage (`kubectl top`). The worker's kubectl plumbing builds its env's `nodes` with
// clusterNodes(cluster).
//
// exec answers from the container as the kubelet runs it: its environment (the pod's env, the service
// variables the kubelet injects at start, HOSTNAME, HOME, PATH), its file system as far as kubeplay knows it
// (mounted ConfigMaps, Secrets, downward API and service-account files, /etc/hostname, /etc/hosts,
// /etc/resolv.conf, files its own program wrote), and the kubelet's script interpreter for everything else
// (`sh -c '…'`, echo, date, hostname…). See the kubelet README's "kubectl exec and top" section.
import type { ConfigMap, Container, EnvVar, Pod, Secret, Service, Volume, VolumeMount } from 'kubernetes-types/core/v1';
import type { Cluster } from '../control-plane/cluster';
import { hexDigest, unitHash } from '../control-plane/kubelet/hash';
import { filesAt, runExecCommand } from '../control-plane/kubelet/program';
import type { ContainerProcess } from '../control-plane/kubelet/pod-worker';
import type { KubectlNodes } from './cli/command';
import { kubectlNodes } from './cli/nodes';

export function clusterNodes(cluster: Cluster): KubectlNodes {
  const base = kubectlNodes(cluster.nodes, cluster.clock);
  return {
    ...base,
    logs(namespace, pod, container, options) {
      const result = base.logs(namespace, pod, container, options);
      if (!('error' in result)) return result;
      // No running kubelet has the pod: the API server cannot reach the node it is bound to.
      const unreachable = unreachableKubelet(cluster, namespace, pod);
      return unreachable ? { error: `Get "https://${unreachable}:10250/containerLogs/${namespace}/${pod}/${container ?? ''}": dial tcp ${unreachable}:10250: connect: no route to host` } : result;
    },
    exec: (namespace, pod, container, argv) => execInContainer(cluster, namespace, pod, container, argv),
    usage: () => clusterUsage(cluster),
  };
}

/** The IP of the node a pod is bound to when its kubelet does not run (killed machine), else undefined. */
function unreachableKubelet(cluster: Cluster, namespace: string, podName: string): string | undefined {
  if (cluster.nodes.kubeletFor(namespace, podName)) return undefined;
  let nodeName: string | undefined;
  try {
    nodeName = cluster.client.pods.get(podName, { namespace }).spec?.nodeName;
  } catch {
    return undefined;
  }
  const kubelet = nodeName ? cluster.nodes.get(nodeName) : undefined;
  return kubelet && !kubelet.isRunning ? kubelet.config.internalIP : undefined;
}

// ------------------------------------------------------------------ exec

type ExecResult = { stdout: string; stderr: string; exitCode: number } | { error: string };

const shells = new Set(['sh', 'bash', 'ash', 'dash', 'zsh', 'ksh']);
/** Programs the kubelet's interpreter answers as an image's binaries would. */
const interpreted = new Set([
  'echo', 'printf', 'date', 'hostname', 'sleep', 'true', 'false', 'test', '[', 'touch', 'rm', 'mkdir', 'chmod', 'chown', 'cp', 'mv',
  'ln', 'kill', 'sync', 'tail', 'wget', 'curl', 'nslookup', 'apk', 'apt-get', 'apt', 'pip', 'pip3', 'npm', 'stress',
]);
const defaultPath = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function execInContainer(cluster: Cluster, namespace: string, podName: string, container: string | undefined, argv: string[]): ExecResult {
  let pod: Pod;
  try {
    pod = cluster.client.pods.get(podName, { namespace });
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
  const name = container ?? pod.spec?.containers[0]?.name ?? '';
  const kubelet = cluster.nodes.kubeletFor(namespace, podName);
  if (!kubelet) {
    const ip = unreachableKubelet(cluster, namespace, podName);
    if (ip) return { error: `error dialing backend: dial tcp ${ip}:10250: connect: no route to host` };
    return { error: `unable to upgrade connection: container not found (${JSON.stringify(name)})` };
  }
  const proc = kubelet.containerProcess(namespace, podName, name);
  if (!proc) return { error: `unable to upgrade connection: container not found (${JSON.stringify(name)})` };
  const fs = containerFiles(cluster, pod, proc, cluster.clock.now());
  const program = argv[0] ?? '';
  const base = program.slice(program.lastIndexOf('/') + 1);
  const busybox = isBusybox(proc);
  switch (base) {
    case 'env':
    case 'printenv': {
      const env = containerEnv(cluster, pod, proc);
      if (base === 'printenv' && argv.length > 1) {
        const values = argv.slice(1).map((k) => env.find(([n]) => n === k)?.[1]);
        return { stdout: values.filter((v) => v !== undefined).map((v) => `${v}\n`).join(''), stderr: '', exitCode: values.every((v) => v !== undefined) ? 0 : 1 };
      }
      return { stdout: env.map(([k, v]) => `${k}=${v}\n`).join(''), stderr: '', exitCode: 0 };
    }
    case 'cat':
      return cat(fs, argv.slice(1), busybox);
    case 'ls':
      return ls(fs, argv.slice(1), busybox);
    case 'pwd':
      return { stdout: `${proc.spec.workingDir || '/'}\n`, stderr: '', exitCode: 0 };
    case 'whoami':
      return { stdout: 'root\n', stderr: '', exitCode: 0 };
    case 'id':
      return { stdout: 'uid=0(root) gid=0(root) groups=0(root)\n', stderr: '', exitCode: 0 };
    case 'uname':
      return { stdout: `${argv.includes('-a') ? `Linux ${podName} 6.8.0-51-generic #52-Ubuntu SMP PREEMPT_DYNAMIC x86_64 GNU/Linux` : 'Linux'}\n`, stderr: '', exitCode: 0 };
  }
  if (!shells.has(base) && !interpreted.has(base)) {
    return {
      stdout: '',
      stderr: `OCI runtime exec failed: exec failed: unable to start container process: exec: ${JSON.stringify(program)}: executable file not found in $PATH: unknown\n`,
      exitCode: 126,
    };
  }
  // A shell without -c reads its stdin, which kubectl does not attach without -i: it exits at once.
  const files: Record<string, string> = { ...proc.ctx.files };
  for (const [path, content] of fs.files) files[path] = content;
  const env = Object.fromEntries(containerEnv(cluster, pod, proc));
  const result = runExecCommand(argv, { ...proc.ctx, env, files, startTime: cluster.clock.now() }, filesAt(proc.run, cluster.clock.now() - proc.startedAt));
  const out = result.output === '' ? '' : `${result.output}\n`;
  return { stdout: out, stderr: '', exitCode: result.code };
}

function isBusybox(proc: ContainerProcess): boolean {
  return /(^|\/)(busybox|alpine)(:|@|$)/.test(proc.ctx.ref.normalized) || proc.ctx.ref.normalized.includes('-alpine') || /:alpine/.test(proc.ctx.ref.normalized);
}

/**
 * The container's environment as the runtime sets it: PATH, HOSTNAME, the pod's variables (envFrom, env), the
 * service variables the kubelet computed when the container started, HOME.
 */
export function containerEnv(cluster: Cluster, pod: Pod, proc: ContainerProcess): [string, string][] {
  const env = new Map<string, string>();
  env.set('PATH', proc.ctx.env.PATH ?? defaultPath);
  env.set('HOSTNAME', proc.ctx.hostname);
  for (const [k, v] of Object.entries(proc.ctx.env)) env.set(k, v);
  for (const e of serviceEnv(cluster, pod, proc.startedAt)) if (!env.has(e.name)) env.set(e.name, e.value ?? '');
  if (!env.has('HOME')) env.set('HOME', '/root');
  return [...env.entries()];
}

/** The kubelet's getServiceEnvVarMap + envvars.FromServices, for the services that existed when the container started. */
function serviceEnv(cluster: Cluster, pod: Pod, startedAt: number): EnvVar[] {
  const ns = pod.metadata?.namespace ?? '';
  let services: Service[] = [];
  try {
    services = cluster.client.services.list({}).items as Service[];
  } catch {
    services = [];
  }
  const existed = (s: Service) => Date.parse(s.metadata?.creationTimestamp ?? '') <= startedAt;
  const ipSet = (s: Service) => !!s.spec?.clusterIP && s.spec.clusterIP !== 'None';
  const chosen = new Map<string, Service>();
  let master = services.find((s) => s.metadata?.namespace === 'default' && s.metadata?.name === 'kubernetes');
  // Every cluster has the API server's Service; kubeplay's does not store one, so its well-known values stand in.
  master ??= { metadata: { name: 'kubernetes', namespace: 'default' }, spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP' }] } };
  chosen.set('kubernetes', master);
  if (pod.spec?.enableServiceLinks !== false) {
    for (const s of services) {
      if (s.metadata?.namespace !== ns || !ipSet(s) || !existed(s)) continue;
      if (ns === 'default' && s.metadata?.name === 'kubernetes') continue;
      chosen.set(s.metadata!.name!, s);
    }
  }
  const out: EnvVar[] = [];
  const envName = (s: string) => s.replace(/-/g, '_').toUpperCase();
  for (const s of [...chosen.values()].sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1))) {
    const prefix = envName(s.metadata!.name!);
    const ip = s.spec!.clusterIP!;
    const ports = s.spec?.ports ?? [];
    if (ports.length === 0) continue;
    out.push({ name: `${prefix}_SERVICE_HOST`, value: ip });
    out.push({ name: `${prefix}_SERVICE_PORT`, value: String(ports[0].port) });
    for (const p of ports) if (p.name) out.push({ name: `${prefix}_SERVICE_PORT_${envName(p.name)}`, value: String(p.port) });
    ports.forEach((p, i) => {
      const proto = (p.protocol ?? 'TCP').toLowerCase();
      const hostPort = `${ip.includes(':') ? `[${ip}]` : ip}:${p.port}`;
      if (i === 0) out.push({ name: `${prefix}_PORT`, value: `${proto}://${hostPort}` });
      const pp = `${prefix}_PORT_${p.port}_${proto.toUpperCase()}`;
      out.push({ name: pp, value: `${proto}://${hostPort}` }, { name: `${pp}_PROTO`, value: proto }, { name: `${pp}_PORT`, value: String(p.port) }, { name: `${pp}_ADDR`, value: ip });
    });
  }
  return out;
}

// ------------------------------------------------------------------ the container's files

interface ContainerFs {
  files: Map<string, string>;
  dirs: Set<string>;
}

const rootDirs = ['bin', 'dev', 'etc', 'home', 'lib', 'proc', 'root', 'run', 'sbin', 'sys', 'tmp', 'usr', 'var'];

function addDirs(fs: ContainerFs, path: string): void {
  let p = path;
  while (p.lastIndexOf('/') > 0) {
    p = p.slice(0, p.lastIndexOf('/'));
    fs.dirs.add(p);
  }
  fs.dirs.add('/');
}

function addFile(fs: ContainerFs, path: string, content: string): void {
  fs.files.set(path, content);
  addDirs(fs, path);
}

function decode(b64: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return b64;
  }
}

function base64url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A bound service-account token's shape (the signature is not a real one: nothing verifies it here). */
function serviceAccountToken(pod: Pod, issuedAt: number, expirationSeconds: number): string {
  const ns = pod.metadata?.namespace ?? '';
  const sa = pod.spec?.serviceAccountName ?? 'default';
  const iat = Math.floor(issuedAt / 1000);
  const header = { alg: 'RS256', kid: hexDigest('kubeplay-sa-key', 43) };
  const payload = {
    aud: ['https://kubernetes.default.svc.cluster.local'],
    exp: iat + expirationSeconds,
    iat,
    iss: 'https://kubernetes.default.svc.cluster.local',
    jti: hexDigest(`${pod.metadata?.uid}/token`, 32).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
    'kubernetes.io': { namespace: ns, node: { name: pod.spec?.nodeName ?? '' }, pod: { name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' }, serviceaccount: { name: sa } },
    nbf: iat,
    sub: `system:serviceaccount:${ns}:${sa}`,
  };
  return `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}.${base64url(hexDigest(`${pod.metadata?.uid}/sig`, 256))}`;
}

function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify(m![k])}`)
    .join('\n');
}

function fieldValue(pod: Pod, path: string): string | undefined {
  switch (path) {
    case 'metadata.name':
      return pod.metadata?.name ?? '';
    case 'metadata.namespace':
      return pod.metadata?.namespace ?? '';
    case 'metadata.uid':
      return pod.metadata?.uid ?? '';
    case 'metadata.labels':
      return formatMap(pod.metadata?.labels);
    case 'metadata.annotations':
      return formatMap(pod.metadata?.annotations);
  }
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? pod.metadata?.labels : pod.metadata?.annotations)?.[m[2]] ?? '';
  return undefined;
}

/** The files one volume holds, relative to its root. */
function volumeFiles(cluster: Cluster, pod: Pod, volume: Volume, startedAt: number): Map<string, string> {
  const ns = pod.metadata?.namespace ?? '';
  const out = new Map<string, string>();
  const keyed = (data: Record<string, string>, items: { key: string; path: string }[] | undefined) => {
    if (items?.length) {
      for (const it of items) if (it.key in data) out.set(it.path, data[it.key]);
    } else {
      for (const [k, v] of Object.entries(data)) out.set(k, v);
    }
  };
  const configMapData = (name: string): Record<string, string> | undefined => {
    try {
      const cm = cluster.client.configMaps.get(name, { namespace: ns }) as ConfigMap;
      const data: Record<string, string> = { ...(cm.data ?? {}) };
      for (const [k, v] of Object.entries(cm.binaryData ?? {})) data[k] = decode(v);
      return data;
    } catch {
      return undefined;
    }
  };
  const secretData = (name: string): Record<string, string> | undefined => {
    try {
      const s = cluster.client.secrets.get(name, { namespace: ns }) as Secret;
      return Object.fromEntries(Object.entries(s.data ?? {}).map(([k, v]) => [k, decode(v)]));
    } catch {
      return undefined;
    }
  };
  if (volume.configMap) {
    const data = configMapData(volume.configMap.name ?? '');
    if (data) keyed(data, volume.configMap.items);
  } else if (volume.secret) {
    const data = secretData(volume.secret.secretName ?? '');
    if (data) keyed(data, volume.secret.items);
  } else if (volume.downwardAPI) {
    for (const it of volume.downwardAPI.items ?? []) {
      const v = it.fieldRef ? fieldValue(pod, it.fieldRef.fieldPath) : undefined;
      if (v !== undefined) out.set(it.path, v);
    }
  } else if (volume.projected) {
    for (const src of volume.projected.sources ?? []) {
      if (src.serviceAccountToken) out.set(src.serviceAccountToken.path, serviceAccountToken(pod, startedAt, src.serviceAccountToken.expirationSeconds ?? 3607));
      else if (src.configMap) {
        const data = configMapData(src.configMap.name ?? '');
        if (data) keyed(data, src.configMap.items);
      } else if (src.secret) {
        const data = secretData(src.secret.name ?? '');
        if (data) keyed(data, src.secret.items);
      } else if (src.downwardAPI) {
        for (const it of src.downwardAPI.items ?? []) {
          const v = it.fieldRef ? fieldValue(pod, it.fieldRef.fieldPath) : undefined;
          if (v !== undefined) out.set(it.path, v);
        }
      }
    }
  }
  return out;
}

function containerFiles(cluster: Cluster, pod: Pod, proc: ContainerProcess, now: number): ContainerFs {
  const fs: ContainerFs = { files: new Map(), dirs: new Set(['/', ...rootDirs.map((d) => `/${d}`)]) };
  const hostname = proc.ctx.hostname;
  const ns = pod.metadata?.namespace ?? '';
  addFile(fs, '/etc/hostname', hostname);
  addFile(
    fs,
    '/etc/hosts',
    ['# Kubernetes-managed hosts file.', '127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', 'fe00::0\tip6-localnet', 'fe00::0\tip6-mcastprefix', 'fe00::1\tip6-allnodes', 'fe00::2\tip6-allrouters', `${proc.podIP ?? ''}\t${hostname}`].join('\n'),
  );
  addFile(fs, '/etc/resolv.conf', [`search ${ns}.svc.cluster.local svc.cluster.local cluster.local`, 'nameserver 10.96.0.10', 'options ndots:5'].join('\n'));
  const volumes = new Map((pod.spec?.volumes ?? []).map((v) => [v.name, v]));
  for (const mount of proc.spec.volumeMounts ?? []) mountVolume(cluster, pod, fs, mount, volumes.get(mount.name), proc.startedAt);
  // What the container's own program created (and still has) by now.
  for (const [path, exists] of filesAt(proc.run, now - proc.startedAt)) {
    if (exists && !fs.files.has(path)) addFile(fs, path, '');
    if (!exists) fs.files.delete(path);
  }
  return fs;
}

function mountVolume(cluster: Cluster, pod: Pod, fs: ContainerFs, mount: VolumeMount, volume: Volume | undefined, startedAt: number): void {
  const root = mount.mountPath.replace(/\/+$/, '') || '/';
  if (!volume) return;
  const files = volumeFiles(cluster, pod, volume, startedAt);
  if (mount.subPath) {
    const content = files.get(mount.subPath);
    if (content !== undefined) addFile(fs, root, content);
    else {
      fs.dirs.add(root);
      addDirs(fs, root);
    }
    return;
  }
  fs.dirs.add(root);
  addDirs(fs, `${root}/x`);
  for (const [rel, content] of files) addFile(fs, `${root === '/' ? '' : root}/${rel}`, content);
}

function normalize(path: string, cwd = '/'): string {
  const abs = path.startsWith('/') ? path : `${cwd.replace(/\/$/, '')}/${path}`;
  const parts: string[] = [];
  for (const p of abs.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `/${parts.join('/')}`;
}

function cat(fs: ContainerFs, args: string[], busybox: boolean): ExecResult {
  let stdout = '';
  let stderr = '';
  let code = 0;
  for (const arg of args.filter((a) => !a.startsWith('-') || a === '-')) {
    const path = normalize(arg);
    const content = fs.files.get(path);
    if (content !== undefined) {
      stdout += content;
      continue;
    }
    code = 1;
    if (fs.dirs.has(path)) stderr += busybox ? `cat: read error: Is a directory\n` : `cat: ${arg}: Is a directory\n`;
    else stderr += busybox ? `cat: can't open '${arg}': No such file or directory\n` : `cat: ${arg}: No such file or directory\n`;
  }
  return { stdout, stderr, exitCode: code };
}

function ls(fs: ContainerFs, args: string[], busybox: boolean): ExecResult {
  const flags = args.filter((a) => a.startsWith('-')).join('');
  const all = flags.includes('a');
  const paths = args.filter((a) => !a.startsWith('-'));
  const targets = paths.length ? paths : ['.'];
  let stdout = '';
  let stderr = '';
  let code = 0;
  const blocks: string[] = [];
  for (const arg of targets) {
    const path = normalize(arg === '.' ? '/' : arg);
    if (fs.files.has(path)) {
      blocks.push(`${arg}\n`);
      continue;
    }
    if (!fs.dirs.has(path)) {
      code = busybox ? 1 : 2;
      stderr += busybox ? `ls: ${arg}: No such file or directory\n` : `ls: cannot access '${arg}': No such file or directory\n`;
      continue;
    }
    const prefix = path === '/' ? '/' : `${path}/`;
    const names = new Set<string>();
    for (const p of [...fs.files.keys(), ...fs.dirs]) {
      if (!p.startsWith(prefix) || p === path) continue;
      const rest = p.slice(prefix.length);
      if (rest) names.add(rest.split('/')[0]);
    }
    const entries = [...names].sort();
    const listed = all ? ['.', '..', ...entries] : entries;
    const body = listed.map((n) => `${n}\n`).join('');
    blocks.push(targets.length > 1 ? `${arg}:\n${body}` : body);
  }
  stdout = blocks.join(targets.length > 1 ? '\n' : '');
  return { stdout, stderr, exitCode: code };
}

// ------------------------------------------------------------------ metrics-server

/** metrics-server's resolution: a container is measured once it has run this long. */
export const metricsWindowMs = 15_000;
/** What the node itself uses besides pods (kubelet, containerd, the OS). */
const nodeOverhead = { cpuMillis: 40, memoryBytes: 480 * 1024 * 1024 };

function cpuLimitMillis(c: Container): number | undefined {
  const raw = c.resources?.limits?.cpu;
  if (raw === undefined) return undefined;
  const s = String(raw);
  const n = s.endsWith('m') ? Number(s.slice(0, -1)) : Number(s) * 1000;
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The usage model (documented in the kubelet README): a container's memory is its image's resident baseline
 * plus what its program allocated by now (stress --vm); its CPU is 1–3m idle (a server, a sleeping shell),
 * 1000m per `stress --cpu`/`yes` hog, 5m for a loop that wakes at least once a second — capped by its CPU
 * limit. A small stable per-container offset (from its ID) keeps pods from showing identical numbers.
 */
export function containerUsage(proc: ContainerProcess, now: number): { cpuMillis: number; memoryBytes: number } {
  const elapsed = now - proc.startedAt;
  const jitter = unitHash(`${proc.ctx.hostname}/${proc.spec.name}/${proc.startedAt}`);
  let memory = proc.baseMemoryBytes + Math.round(jitter * 2 * 1024 * 1024);
  for (const a of proc.run.allocations) if (a.at <= elapsed) memory += a.bytes;
  const argv = proc.ctx.argv ?? [];
  let cpu = 1 + Math.floor(jitter * 3);
  const stress = argv.findIndex((a) => /(^|\/)stress(-ng)?$/.test(a));
  const script = argv.join(' ');
  if (stress >= 0) {
    const i = argv.findIndex((a, j) => j > stress && (a === '--cpu' || a === '-c' || a === '-cpus'));
    if (i >= 0) cpu += 1000 * (Number(argv[i + 1]) || 1);
  } else if (/\bstress(-ng)?\b.*(--cpu|-c)\s+(\d+)/.test(script)) {
    cpu += 1000 * Number(/(--cpu|-c)\s+(\d+)/.exec(script)![2]);
  }
  if (proc.run.end.type === 'loop' && elapsed >= proc.run.end.at) cpu += proc.run.end.period <= 50 ? 1000 : proc.run.end.period <= 1000 ? 5 : 0;
  const limit = cpuLimitMillis(proc.spec);
  if (limit !== undefined) cpu = Math.min(cpu, limit);
  return { cpuMillis: cpu, memoryBytes: memory };
}

function clusterUsage(cluster: Cluster): ReturnType<NonNullable<KubectlNodes['usage']>> {
  const now = cluster.clock.now();
  const nodes: { name: string; cpuMillis: number; memoryBytes: number }[] = [];
  const pods: { namespace: string; name: string; containers: { name: string; cpuMillis: number; memoryBytes: number }[] }[] = [];
  let all: Pod[] = [];
  try {
    all = cluster.client.pods.list({}).items as Pod[];
  } catch {
    all = [];
  }
  const byNode = new Map<string, { cpuMillis: number; memoryBytes: number }>();
  for (const pod of all) {
    const ns = pod.metadata?.namespace ?? '';
    const name = pod.metadata?.name ?? '';
    const kubelet = cluster.nodes.kubeletFor(ns, name);
    if (!kubelet) continue;
    const containers: { name: string; cpuMillis: number; memoryBytes: number }[] = [];
    for (const c of [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])]) {
      const proc = kubelet.containerProcess(ns, name, c.name);
      if (!proc) continue;
      const u = containerUsage(proc, now);
      const total = byNode.get(kubelet.nodeName) ?? { cpuMillis: 0, memoryBytes: 0 };
      byNode.set(kubelet.nodeName, { cpuMillis: total.cpuMillis + u.cpuMillis, memoryBytes: total.memoryBytes + u.memoryBytes });
      if (now - proc.startedAt >= metricsWindowMs) containers.push({ name: c.name, ...u });
    }
    if (containers.length) pods.push({ namespace: ns, name, containers });
  }
  for (const k of cluster.nodes.list()) {
    if (!k.isRunning || !k.isRegistered) continue;
    const u = byNode.get(k.nodeName) ?? { cpuMillis: 0, memoryBytes: 0 };
    const jitter = unitHash(k.nodeName);
    nodes.push({ name: k.nodeName, cpuMillis: nodeOverhead.cpuMillis + Math.floor(jitter * 20) + u.cpuMillis, memoryBytes: nodeOverhead.memoryBytes + Math.round(jitter * 64 * 1024 * 1024) + u.memoryBytes });
  }
  return { nodes, pods };
}
