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
import type { EnvVar, Pod, Service, Volume, VolumeMount } from 'kubernetes-types/core/v1';
import type { Cluster } from '../control-plane/cluster';
import { filesAt, runExecCommand } from '../control-plane/kubelet/program';
import { podNetwork } from '../control-plane/network/pod-network';
import { imageHasTool, networkTools } from '../control-plane/network/tools';
import type { ContainerProcess } from '../control-plane/kubelet/pod-worker';
import { dataDirName, isAtomicVolume } from '../control-plane/kubelet/volume-contents';
import { writtenVolumeFiles } from '../control-plane/kubelet/volume-files';
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
    usage: () => cluster.metrics.usage(),
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
  'ln', 'kill', 'sync', 'tail', 'wget', 'curl', 'nslookup', 'dig', 'apk', 'apt-get', 'apt', 'pip', 'pip3', 'npm', 'stress',
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
      return ls(fs, argv.slice(1), busybox, proc.startedAt);
    case 'pwd':
      return { stdout: `${proc.spec.workingDir || '/'}\n`, stderr: '', exitCode: 0 };
    case 'whoami':
      return { stdout: 'root\n', stderr: '', exitCode: 0 };
    case 'id':
      return { stdout: 'uid=0(root) gid=0(root) groups=0(root)\n', stderr: '', exitCode: 0 };
    case 'uname':
      return { stdout: `${argv.includes('-a') ? `Linux ${podName} 6.8.0-51-generic #52-Ubuntu SMP PREEMPT_DYNAMIC x86_64 GNU/Linux` : 'Linux'}\n`, stderr: '', exitCode: 0 };
  }
  // curl, wget and nslookup exist only in the images that ship them (busybox has no curl, nginx no wget).
  if (!shells.has(base) && (!interpreted.has(base) || (networkTools.has(base) && !imageHasTool(proc.ctx.ref, base)))) {
    return {
      stdout: '',
      stderr: `OCI runtime exec failed: exec failed: unable to start container process: exec: ${JSON.stringify(program)}: executable file not found in $PATH: unknown\n`,
      exitCode: 126,
    };
  }
  // A shell without -c reads its stdin, which kubectl does not attach without -i: it exits at once.
  const files: Record<string, string> = { ...proc.ctx.files };
  for (const [path, content] of fs.files) files[path] = content;
  // The interpreter does not follow links: give it the files under their linked names too.
  for (const link of fs.links.keys()) {
    const real = resolve(fs, link);
    if (fs.files.has(real)) files[link] = fs.files.get(real)!;
    else for (const [path, content] of fs.files) if (path.startsWith(`${real}/`)) files[`${link}${path.slice(real.length)}`] = content;
  }
  const env = Object.fromEntries(containerEnv(cluster, pod, proc));
  const network = podNetwork(cluster.network, namespace, podName);
  const result = runExecCommand(argv, { ...proc.ctx, env, files, startTime: cluster.clock.now(), network }, filesAt(proc.run, cluster.clock.now() - proc.startedAt));
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
  /** File modes other than 0644. */
  modes: Map<string, number>;
  /** Directory modes other than 0755. */
  dirModes: Map<string, number>;
  /** Symbolic links (the atomic writer's ..data layout): path → target, relative to the link's directory. */
  links: Map<string, string>;
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

function addFile(fs: ContainerFs, path: string, content: string, mode?: number): void {
  fs.files.set(path, content);
  if (mode !== undefined && mode !== 0o644) fs.modes.set(path, mode);
  addDirs(fs, path);
}

function containerFiles(cluster: Cluster, pod: Pod, proc: ContainerProcess, now: number): ContainerFs {
  const fs: ContainerFs = { files: new Map(), dirs: new Set(['/', ...rootDirs.map((d) => `/${d}`)]), modes: new Map(), dirModes: new Map(), links: new Map() };
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
  for (const mount of proc.spec.volumeMounts ?? []) mountVolume(cluster, pod, fs, mount, volumes.get(mount.name), proc, now);
  // What the container's own program created (and still has) by now.
  for (const [path, exists] of filesAt(proc.run, now - proc.startedAt)) {
    if (exists && !fs.files.has(path)) addFile(fs, path, '');
    if (!exists) fs.files.delete(path);
  }
  return fs;
}

function mountVolume(cluster: Cluster, pod: Pod, fs: ContainerFs, mount: VolumeMount, volume: Volume | undefined, proc: ContainerProcess, now: number): void {
  const root = mount.mountPath.replace(/\/+$/, '') || '/';
  if (!volume) return;
  const kubelet = cluster.nodes.kubeletFor(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
  if (!kubelet) return;
  const at = (rel: string) => `${root === '/' ? '' : root}/${rel}`;
  if (isAtomicVolume(volume)) {
    const versions = kubelet.volumeContents.versions(pod, volume, now, kubelet.volumeSources);
    if (versions.length === 0) return;
    if (mount.subPath) {
      // A bind mount of the file as it was when the container started: later syncs do not reach it.
      const started = [...versions].reverse().find((v) => v.at <= proc.startedAt) ?? versions[0];
      const file = started.files.get(mount.subPath);
      if (file) addFile(fs, root, file.content, file.mode);
      else addDirs(fs, `${root}/x`);
      return;
    }
    const latest = versions[versions.length - 1];
    const dir = dataDirName(pod.metadata?.uid ?? '', volume.name, latest.at);
    addDirs(fs, `${at(dir)}/x`);
    fs.links.set(at('..data'), dir);
    for (const [rel, file] of latest.files) {
      addFile(fs, `${at(dir)}/${rel}`, file.content, file.mode);
      const top = rel.split('/')[0];
      fs.links.set(at(top), `..data/${top}`);
    }
    return;
  }
  addDirs(fs, `${root}/x`);
  fs.dirModes.set(root, volume.emptyDir ? 0o777 : 0o755);
  if (volume.hostPath) {
    const base = volume.hostPath.path + (mount.subPath ? `/${mount.subPath}` : '');
    for (const d of kubelet.hostFilesystem.dirsUnder(base)) addDirs(fs, `${at(d)}/x`);
    for (const [rel, content] of kubelet.hostFilesystem.filesUnder(base)) addFile(fs, at(rel), content);
  }
  if (volume.emptyDir || volume.hostPath || volume.persistentVolumeClaim) {
    const running = (pod.spec?.containers ?? []).concat(pod.spec?.initContainers ?? []).flatMap((c) => {
      const p = kubelet.containerProcess(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', c.name);
      return p ? [{ mounts: p.spec.volumeMounts ?? [], run: p.run, startedAt: p.startedAt }] : [];
    });
    const prefix = mount.subPath ? `${mount.subPath.replace(/\/+$/, '')}/` : '';
    for (const [rel, f] of writtenVolumeFiles(pod, running, now).get(volume.name) ?? []) {
      if (prefix && !rel.startsWith(prefix)) continue;
      const path = at(rel.slice(prefix.length));
      if (f.exists) addFile(fs, path, f.content);
      else fs.files.delete(path);
    }
  }
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

/** The path with every symbolic link along it followed (the atomic writer's key -> ..data/key -> ..<stamp>/key). */
function resolve(fs: ContainerFs, path: string): string {
  let p = path;
  for (let hops = 0; hops < 8; hops++) {
    const parts = p.split('/').filter(Boolean);
    let changed = false;
    for (let n = 1; n <= parts.length; n++) {
      const head = `/${parts.slice(0, n).join('/')}`;
      const target = fs.links.get(head);
      if (target === undefined) continue;
      const dir = head.slice(0, head.lastIndexOf('/')) || '/';
      p = normalize([target.startsWith('/') ? target : `${dir}/${target}`, ...parts.slice(n)].join('/'));
      changed = true;
      break;
    }
    if (!changed) return p;
  }
  return p;
}

function cat(fs: ContainerFs, args: string[], busybox: boolean): ExecResult {
  let stdout = '';
  let stderr = '';
  let code = 0;
  for (const arg of args.filter((a) => !a.startsWith('-') || a === '-')) {
    const path = resolve(fs, normalize(arg));
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

function permString(kind: '-' | 'd' | 'l', mode: number): string {
  const bits = 'rwxrwxrwx';
  let out: string = kind;
  for (let i = 0; i < 9; i++) out += mode & (1 << (8 - i)) ? bits[i] : '-';
  return out;
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** One `ls -l` line (coreutils or busybox spacing). */
function longEntry(fs: ContainerFs, dir: string, name: string, deref: boolean, busybox: boolean, mtime: number): string {
  const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
  const link = fs.links.get(path);
  const target = link !== undefined && deref ? resolve(fs, path) : path;
  let perms: string;
  let size: number;
  let suffix = '';
  if (link !== undefined && !deref) {
    perms = permString('l', 0o777);
    size = link.length;
    suffix = ` -> ${link}`;
  } else if (fs.files.has(target)) {
    perms = permString('-', fs.modes.get(target) ?? 0o644);
    size = new TextEncoder().encode(fs.files.get(target)!).length;
  } else {
    perms = permString('d', fs.dirModes.get(target) ?? 0o755);
    size = 4096;
  }
  const d = new Date(mtime);
  const date = `${months[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  const links = perms.startsWith('d') ? 2 : 1;
  return busybox ? `${perms}    ${links} root     root      ${String(size).padStart(10, ' ')} ${date} ${name}${suffix}` : `${perms} ${links} root root ${size} ${date} ${name}${suffix}`;
}

function ls(fs: ContainerFs, args: string[], busybox: boolean, mtime: number): ExecResult {
  const flags = args.filter((a) => a.startsWith('-')).join('');
  const all = flags.includes('a');
  const long = flags.includes('l');
  const deref = flags.includes('L');
  const paths = args.filter((a) => !a.startsWith('-'));
  const targets = paths.length ? paths : ['.'];
  let stderr = '';
  let code = 0;
  const blocks: string[] = [];
  for (const arg of targets) {
    const asGiven = normalize(arg === '.' ? '/' : arg);
    // A link to a directory is listed as the directory when named with a trailing slash or with -L.
    const path = fs.links.has(asGiven) && (deref || arg.endsWith('/') || !long) ? resolve(fs, asGiven) : resolve(fs, asGiven.slice(0, asGiven.lastIndexOf('/')) || '/') + (asGiven === '/' ? '' : asGiven.slice(asGiven.lastIndexOf('/')));
    const real = normalize(path);
    if (flags.includes('d') && fs.dirs.has(real)) {
      const name = real === '/' ? '/' : real.slice(real.lastIndexOf('/') + 1);
      blocks.push(long ? `${longEntry(fs, real.slice(0, real.lastIndexOf('/')) || '/', name, deref, busybox, mtime).replace(/ \S+$/, ` ${arg}`)}\n` : `${arg}\n`);
      continue;
    }
    if (fs.files.has(real) || (fs.links.has(asGiven) && long && !deref && !arg.endsWith('/'))) {
      const dir = asGiven.slice(0, asGiven.lastIndexOf('/')) || '/';
      blocks.push(long ? `${longEntry(fs, dir, asGiven.slice(asGiven.lastIndexOf('/') + 1), deref, busybox, mtime).replace(/ \S+( -> .*)?$/, ` ${arg}$1`)}\n` : `${arg}\n`);
      continue;
    }
    if (!fs.dirs.has(real)) {
      code = busybox ? 1 : 2;
      stderr += busybox ? `ls: ${arg}: No such file or directory\n` : `ls: cannot access '${arg}': No such file or directory\n`;
      continue;
    }
    const prefix = real === '/' ? '/' : `${real}/`;
    const names = new Set<string>();
    for (const p of [...fs.files.keys(), ...fs.dirs, ...fs.links.keys()]) {
      if (!p.startsWith(prefix) || p === real) continue;
      const rest = p.slice(prefix.length);
      if (rest) names.add(rest.split('/')[0]);
    }
    const entries = [...names].filter((n) => all || !n.startsWith('.')).sort();
    const listed = all ? ['.', '..', ...entries] : entries;
    const body = long
      ? `total 0\n${listed.map((n) => `${n === '.' || n === '..' ? `${permString('d', fs.dirModes.get(real) ?? 0o755)} 2 root root 4096 ${longEntry(fs, real, n, deref, busybox, mtime).split(' ').slice(-3).join(' ')}` : longEntry(fs, real, n, deref, busybox, mtime)}\n`).join('')}`
      : listed.map((n) => `${n}\n`).join('');
    blocks.push(targets.length > 1 ? `${arg}:\n${body}` : body);
  }
  return { stdout: blocks.join(targets.length > 1 ? '\n' : ''), stderr, exitCode: code };
}

// ------------------------------------------------------------------ metrics-server

// The usage model and the simulated metrics-server live in src/control-plane/metrics/ (usage.ts,
// metrics-server.ts): kubectl top and the HPA controller read the same scrape.
