// What a pod's volumes hold, as the kubelet's volume plugins write them: configMap, secret, downwardAPI and
// projected volumes are written by the atomic writer (the files are symlinks into `..data`, itself a symlink to
// a timestamped directory, swapped in one rename on update); emptyDir starts empty and is shared by the pod's
// containers; hostPath is a directory of the node, whose files outlive the pods that wrote them.
//
// Timing, as on a v1.32 kubelet: configMap and secret contents are written at mount and refreshed on the pod's
// periodic sync (syncFrequency, 1 min), so an edit shows in the files within a minute — never in env (resolved
// once at container start) nor through a subPath mount (a bind mount of the file as it was when the container
// started). Downward API files follow the pod at once (a pod update triggers a sync).
import type { Container, DownwardAPIVolumeFile, KeyToPath, Pod, Volume } from 'kubernetes-types/core/v1';
import { parseQuantity, toMillis, toNumber } from '../../shared/lib/quantity';
import { hexDigest } from './hash';

/** The kubelet's syncFrequency: every pod is synced (and its volumes refreshed) this often. */
export const podSyncPeriodMs = 60_000;
/** The mode a volume file gets when neither the item nor the volume says (the API's defaultMode, 0644). */
export const defaultFileMode = 0o644;

export interface VolumeFile {
  content: string;
  mode: number;
}

/** The decoded data of a ConfigMap (data and binaryData) or Secret, and when it last changed (ms). */
export interface ObjectData {
  data: Record<string, string>;
  changedAt: number;
}

export type ObjectSource = (kind: 'configmap' | 'secret', namespace: string, name: string) => ObjectData | undefined;

export interface ProjectionContext {
  objects: ObjectSource;
  /** The node's allocatable (resourceFieldRef of a container without a limit). */
  allocatable: Record<string, string>;
  /** When the kubelet mounted the pod's volumes (the token's issue time). */
  mountedAt: number;
}

/** A volume's written contents at one time (its `..data` generation). */
export interface VolumeVersion {
  at: number;
  files: Map<string, VolumeFile>;
}

/** Whether the kind of volume is written by the atomic writer (symlinks into ..data). */
export function isAtomicVolume(volume: Volume): boolean {
  return !!(volume.configMap || volume.secret || volume.downwardAPI || volume.projected);
}

// ------------------------------------------------------------------ downward API

/** fieldpath.FormatMap: sorted key="value" lines (Go %q quoting), no final newline. */
export function formatMap(m: Record<string, string> | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${JSON.stringify(m![k])}`)
    .join('\n');
}

/** The value of a downward API volume item's fieldRef (the fields a volume may use). */
export function volumeFieldValue(pod: Pod, path: string): string | undefined {
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

/**
 * resource.ExtractContainerResourceValue: a container's request or limit in units of the divisor, rounded up
 * (cpu in millicores, so 250m with divisor 1 is "1"); a limit the container does not set is the node's
 * allocatable.
 */
export function containerResourceValue(ref: { resource: string; divisor?: unknown }, container: Container | undefined, allocatable: Record<string, string>): string {
  const [kind, name] = ref.resource.split('.') as ['limits' | 'requests', string];
  const raw = container?.resources?.[kind]?.[name] ?? (kind === 'limits' ? allocatable[name] : undefined) ?? '0';
  try {
    const q = parseQuantity(String(raw));
    const divisor = parseQuantity(ref.divisor !== undefined ? String(ref.divisor) : '1');
    const value = name === 'cpu' ? toMillis(q) / toMillis(divisor) : toNumber(q) / toNumber(divisor);
    return String(Math.ceil(value));
  } catch {
    return '0';
  }
}

function downwardFiles(pod: Pod, items: readonly DownwardAPIVolumeFile[] | undefined, defaultMode: number, allocatable: Record<string, string>, out: Map<string, VolumeFile>): void {
  for (const it of items ?? []) {
    let value: string | undefined;
    if (it.fieldRef) value = volumeFieldValue(pod, it.fieldRef.fieldPath);
    else if (it.resourceFieldRef) {
      const c = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].find((x) => x.name === it.resourceFieldRef!.containerName);
      value = containerResourceValue(it.resourceFieldRef, c, allocatable);
    }
    if (value !== undefined) out.set(it.path, volumeFile(value, it.mode ?? defaultMode));
  }
}

// ------------------------------------------------------------------ service account token

function base64url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The token header is the same for every pod (one signing key): encoded once. */
let encodedTokenHeader: string | undefined;

/** A bound service-account token's shape (the signature is not a real one: nothing verifies it here). */
export function serviceAccountToken(pod: Pod, issuedAt: number, expirationSeconds: number, audience?: string): string {
  return tokenOf(tokenClaimsOf(pod, issuedAt, expirationSeconds, audience));
}

/** What a token says about its pod: the few strings it is made of, so a lazy token keeps no pod alive. */
interface TokenClaims {
  namespace: string;
  serviceAccount: string;
  nodeName: string;
  podName: string;
  uid: string | undefined;
  issuedAt: number;
  expirationSeconds: number;
  audience: string | undefined;
}

function tokenClaimsOf(pod: Pod, issuedAt: number, expirationSeconds: number, audience: string | undefined): TokenClaims {
  return {
    namespace: pod.metadata?.namespace ?? '',
    serviceAccount: pod.spec?.serviceAccountName ?? 'default',
    nodeName: pod.spec?.nodeName ?? '',
    podName: pod.metadata?.name ?? '',
    uid: pod.metadata?.uid,
    issuedAt,
    expirationSeconds,
    audience,
  };
}

function tokenOf(c: TokenClaims): string {
  const ns = c.namespace;
  const sa = c.serviceAccount;
  const iat = Math.floor(c.issuedAt / 1000);
  encodedTokenHeader ??= base64url(JSON.stringify({ alg: 'RS256', kid: hexDigest('kubeplay-sa-key', 43) }));
  const payload = {
    aud: [c.audience ?? 'https://kubernetes.default.svc.cluster.local'],
    exp: iat + c.expirationSeconds,
    iat,
    iss: 'https://kubernetes.default.svc.cluster.local',
    jti: hexDigest(`${c.uid}/token`, 32).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
    'kubernetes.io': { namespace: ns, node: { name: c.nodeName }, pod: { name: c.podName, uid: c.uid ?? '' }, serviceaccount: { name: sa } },
    nbf: iat,
    sub: `system:serviceaccount:${ns}:${sa}`,
  };
  return `${encodedTokenHeader}.${base64url(JSON.stringify(payload))}.${base64url(hexDigest(`${c.uid}/sig`, 256))}`;
}

/**
 * The token file of a projected volume. Every pod's kube-api-access volume has one, and nearly none is ever
 * read (kubectl exec cat), so its ~1 KB of text is made on first read and not kept: it is a pure function of
 * the claims.
 */
class TokenFile implements VolumeFile, TokenClaims {
  // The claims are the file's own members (not an object of their own): every pod's volume holds one.
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly nodeName: string;
  readonly podName: string;
  readonly uid: string | undefined;
  readonly issuedAt: number;
  readonly expirationSeconds: number;
  readonly audience: string | undefined;

  constructor(
    claims: TokenClaims,
    readonly mode: number,
  ) {
    this.namespace = claims.namespace;
    this.serviceAccount = claims.serviceAccount;
    this.nodeName = claims.nodeName;
    this.podName = claims.podName;
    this.uid = claims.uid;
    this.issuedAt = claims.issuedAt;
    this.expirationSeconds = claims.expirationSeconds;
    this.audience = claims.audience;
  }

  get content(): string {
    return tokenOf(this);
  }

  sameAs(other: TokenFile): boolean {
    const a: TokenClaims = this;
    const b: TokenClaims = other;
    return (
      a.namespace === b.namespace &&
      a.serviceAccount === b.serviceAccount &&
      a.nodeName === b.nodeName &&
      a.podName === b.podName &&
      a.uid === b.uid &&
      a.audience === b.audience &&
      Math.floor(a.issuedAt / 1000) === Math.floor(b.issuedAt / 1000) &&
      a.expirationSeconds === b.expirationSeconds
    );
  }
}

// ------------------------------------------------------------------ projection

function keyedFiles(data: Record<string, string>, items: readonly KeyToPath[] | undefined, defaultMode: number, out: Map<string, VolumeFile>): void {
  if (items?.length) {
    for (const it of items) if (it.key in data) out.set(it.path, volumeFile(data[it.key], it.mode ?? defaultMode));
  } else {
    for (const [k, v] of Object.entries(data)) out.set(k, volumeFile(v, defaultMode));
  }
}

/**
 * Written files by content and mode, shared: every pod's service account volume holds the same ca.crt and
 * namespace files, and a kubelet keeps each pod's. Frozen; a cache, emptied when it holds too many.
 */
const volumeFiles = new Map<string, VolumeFile[]>();
const maxVolumeFiles = 1024;
/** Only small files are remembered: the cache must not keep a big ConfigMap's text alive after its pods. */
const maxSharedContent = 4096;

function volumeFile(content: string, mode: number): VolumeFile {
  if (content.length > maxSharedContent) return { content, mode };
  let list = volumeFiles.get(content);
  if (list) {
    for (const f of list) if (f.mode === mode) return f;
  } else {
    if (volumeFiles.size >= maxVolumeFiles) volumeFiles.clear();
    volumeFiles.set(content, (list = []));
  }
  const f: VolumeFile = Object.freeze({ content, mode });
  list.push(f);
  return f;
}

/** The objects a volume reads (for deciding whether a sync could have seen their latest change). */
function sourcesOf(volume: Volume): { kind: 'configmap' | 'secret'; name: string }[] {
  if (volume.configMap) return [{ kind: 'configmap', name: volume.configMap.name ?? '' }];
  if (volume.secret) return [{ kind: 'secret', name: volume.secret.secretName ?? '' }];
  const out: { kind: 'configmap' | 'secret'; name: string }[] = [];
  for (const s of volume.projected?.sources ?? []) {
    if (s.configMap) out.push({ kind: 'configmap', name: s.configMap.name ?? '' });
    if (s.secret) out.push({ kind: 'secret', name: s.secret.name ?? '' });
  }
  return out;
}

/** The files of an atomic-writer volume (configMap, secret, downwardAPI, projected) from the objects now. */
export function projectVolume(pod: Pod, volume: Volume, ctx: ProjectionContext): Map<string, VolumeFile> {
  const ns = pod.metadata?.namespace ?? '';
  const out = new Map<string, VolumeFile>();
  if (volume.configMap) {
    const obj = ctx.objects('configmap', ns, volume.configMap.name ?? '');
    if (obj) keyedFiles(obj.data, volume.configMap.items, volume.configMap.defaultMode ?? defaultFileMode, out);
  } else if (volume.secret) {
    const obj = ctx.objects('secret', ns, volume.secret.secretName ?? '');
    if (obj) keyedFiles(obj.data, volume.secret.items, volume.secret.defaultMode ?? defaultFileMode, out);
  } else if (volume.downwardAPI) {
    downwardFiles(pod, volume.downwardAPI.items, volume.downwardAPI.defaultMode ?? defaultFileMode, ctx.allocatable, out);
  } else if (volume.projected) {
    const mode = volume.projected.defaultMode ?? defaultFileMode;
    for (const src of volume.projected.sources ?? []) {
      if (src.serviceAccountToken) {
        const t = src.serviceAccountToken;
        out.set(t.path, new TokenFile(tokenClaimsOf(pod, ctx.mountedAt, t.expirationSeconds ?? 3607, t.audience), mode));
      } else if (src.configMap) {
        const obj = ctx.objects('configmap', ns, src.configMap.name ?? '');
        if (obj) keyedFiles(obj.data, src.configMap.items, mode, out);
      } else if (src.secret) {
        const obj = ctx.objects('secret', ns, src.secret.name ?? '');
        if (obj) keyedFiles(obj.data, src.secret.items, mode, out);
      } else if (src.downwardAPI) {
        downwardFiles(pod, src.downwardAPI.items, mode, ctx.allocatable, out);
      }
    }
  }
  return out;
}

function sameFiles(a: Map<string, VolumeFile>, b: Map<string, VolumeFile>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const o = b.get(k);
    if (!o || o.mode !== v.mode) return false;
    // Two lazy tokens are the same text when their claims are (without making either).
    if (v instanceof TokenFile && o instanceof TokenFile) {
      if (!v.sameAs(o)) return false;
    } else if (o.content !== v.content) return false;
  }
  return true;
}

/**
 * A generation's files as path, file, path, file, … in the order written: a pod's volume holds a few files, and a
 * Map's table (~200 bytes) cost more than the whole list. Readers get a Map made from it (unpackFiles).
 */
type PackedFiles = readonly (string | VolumeFile)[];

function packFiles(files: Map<string, VolumeFile>): PackedFiles {
  const out = new Array<string | VolumeFile>(files.size * 2);
  let i = 0;
  for (const [path, file] of files) {
    out[i++] = path;
    out[i++] = file;
  }
  return out;
}

function unpackFiles(packed: PackedFiles): Map<string, VolumeFile> {
  const out = new Map<string, VolumeFile>();
  for (let i = 0; i < packed.length; i += 2) out.set(packed[i] as string, packed[i + 1] as VolumeFile);
  return out;
}

/**
 * A volume's generations: the first, written at mount (the pod's mountedAt), and those a periodic sync wrote
 * since (most volumes have none).
 */
interface VolumeGenerations {
  name: string;
  first: PackedFiles;
  later: { at: number; files: PackedFiles }[] | undefined;
}

/**
 * The kubelet's written volume contents per pod: every generation of each atomic-writer volume, so a reader
 * sees what the last sync wrote and a subPath mount what was there when its container started.
 */
export class VolumeContentStore {
  /** Per pod, its volumes' generations: a short list, not a Map (a Map's table costs more than a pod's few volumes). */
  private readonly pods = new Map<string, { mountedAt: number; volumes: VolumeGenerations[] }>();

  /** The volume manager mounted the pod's volumes at `at`: the first generation of each is written. */
  mounted(pod: Pod, at: number, ctx: Omit<ProjectionContext, 'mountedAt'>): void {
    const uid = pod.metadata?.uid ?? '';
    if (this.pods.has(uid)) return;
    const volumes: VolumeGenerations[] = [];
    for (const v of pod.spec?.volumes ?? []) {
      if (!isAtomicVolume(v)) continue;
      const first = packFiles(projectVolume(pod, v, { ...ctx, mountedAt: at }));
      const i = volumes.findIndex((e) => e.name === v.name);
      if (i >= 0) volumes[i] = { name: v.name, first, later: undefined };
      else volumes.push({ name: v.name, first, later: undefined });
    }
    this.pods.set(uid, { mountedAt: at, volumes: volumes.slice() });
  }

  forget(uid: string): void {
    this.pods.delete(uid);
  }

  /** When the pod's volumes were mounted, or undefined when they are not. */
  mountedAt(uid: string): number | undefined {
    return this.pods.get(uid)?.mountedAt;
  }

  /**
   * Every generation of a volume up to `now`, oldest first. Each periodic sync since the last generation
   * rewrites the volume when the objects (as the sync saw them) differ; an object changed after the latest
   * sync waits for the next one. Downward API sources always reflect the pod as given.
   */
  versions(pod: Pod, volume: Volume, now: number, ctx: Omit<ProjectionContext, 'mountedAt'>): VolumeVersion[] {
    const state = this.pods.get(pod.metadata?.uid ?? '');
    if (!state) return [];
    const full: ProjectionContext = { ...ctx, mountedAt: state.mountedAt };
    let gens = state.volumes.find((e) => e.name === volume.name);
    if (!gens) {
      gens = { name: volume.name, first: packFiles(projectVolume(pod, volume, full)), later: undefined };
      state.volumes = [...state.volumes, gens];
    }
    const list: VolumeVersion[] = [{ at: state.mountedAt, files: unpackFiles(gens.first) }];
    for (const g of gens.later ?? []) list.push({ at: g.at, files: unpackFiles(g.files) });
    const lastSync = state.mountedAt + Math.floor((now - state.mountedAt) / podSyncPeriodMs) * podSyncPeriodMs;
    const latest = list[list.length - 1];
    if (lastSync > latest.at) {
      const ns = pod.metadata?.namespace ?? '';
      const changedAfterSync = sourcesOf(volume).some((s) => (ctx.objects(s.kind, ns, s.name)?.changedAt ?? -Infinity) > lastSync);
      if (!changedAfterSync) {
        const files = projectVolume(pod, volume, full);
        if (!sameFiles(files, latest.files)) {
          list.push({ at: lastSync, files });
          gens.later = [...(gens.later ?? []), { at: lastSync, files: packFiles(files) }];
        }
      }
    }
    // Downward API items follow the pod at once (a label change triggers a sync of the pod).
    return list.map((v) => ({ at: v.at, files: withDownward(pod, volume, v.files, full) }));
  }
}

function withDownward(pod: Pod, volume: Volume, files: Map<string, VolumeFile>, ctx: ProjectionContext): Map<string, VolumeFile> {
  const hasDownward = !!volume.downwardAPI || (volume.projected?.sources ?? []).some((s) => s.downwardAPI);
  if (!hasDownward) return files;
  const out = new Map(files);
  if (volume.downwardAPI) downwardFiles(pod, volume.downwardAPI.items, volume.downwardAPI.defaultMode ?? defaultFileMode, ctx.allocatable, out);
  for (const s of volume.projected?.sources ?? []) if (s.downwardAPI) downwardFiles(pod, s.downwardAPI.items, volume.projected!.defaultMode ?? defaultFileMode, ctx.allocatable, out);
  return out;
}

/** The atomic writer's timestamped directory of a generation: `..2006_01_02_15_04_05.<random digits>`. */
export function dataDirName(uid: string, volume: string, at: number): string {
  const d = new Date(at);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const stamp = `${d.getUTCFullYear()}_${p(d.getUTCMonth() + 1)}_${p(d.getUTCDate())}_${p(d.getUTCHours())}_${p(d.getUTCMinutes())}_${p(d.getUTCSeconds())}`;
  const digits = String(parseInt(hexDigest(`${uid}/${volume}/${at}`, 8), 16) % 4_294_967_296);
  return `..${stamp}.${digits}`;
}

// ------------------------------------------------------------------ the node's own files (hostPath)

/** Directories every node has (a hostPath to one of them passes the Directory check). */
const nodeDirs = ['/', '/etc', '/var', '/var/log', '/var/lib', '/var/lib/kubelet', '/var/run', '/run', '/tmp', '/usr', '/usr/local', '/usr/bin', '/bin', '/sbin', '/lib', '/opt', '/home', '/root', '/dev', '/proc', '/sys', '/mnt', '/srv'];
const nodeFiles = ['/etc/hostname', '/etc/hosts', '/etc/resolv.conf', '/etc/os-release', '/etc/passwd', '/var/run/containerd/containerd.sock', '/run/containerd/containerd.sock', '/dev/null'];

/** One node's file system as hostPath volumes see it: persists across pods while the node exists. */
export class HostFilesystem {
  readonly dirs = new Set<string>(nodeDirs);
  readonly files = new Map<string, string>(nodeFiles.map((f) => [f, '']));

  isDir(path: string): boolean {
    return this.dirs.has(normalizePath(path));
  }

  isFile(path: string): boolean {
    return this.files.has(normalizePath(path));
  }

  exists(path: string): boolean {
    return this.isDir(path) || this.isFile(path);
  }

  mkdirAll(path: string): void {
    let p = normalizePath(path);
    while (p !== '/' && !this.dirs.has(p)) {
      this.dirs.add(p);
      p = p.slice(0, p.lastIndexOf('/')) || '/';
    }
  }

  writeFile(path: string, content: string): void {
    const p = normalizePath(path);
    this.mkdirAll(p.slice(0, p.lastIndexOf('/')) || '/');
    this.files.set(p, content);
  }

  removeFile(path: string): void {
    this.files.delete(normalizePath(path));
  }

  /** Files under a directory, relative to it. */
  filesUnder(dir: string): Map<string, string> {
    const root = normalizePath(dir);
    const prefix = root === '/' ? '/' : `${root}/`;
    const out = new Map<string, string>();
    for (const [p, c] of this.files) if (p.startsWith(prefix)) out.set(p.slice(prefix.length), c);
    return out;
  }

  /** Directories under a directory, relative to it. */
  dirsUnder(dir: string): string[] {
    const root = normalizePath(dir);
    const prefix = root === '/' ? '/' : `${root}/`;
    return [...this.dirs].filter((p) => p.startsWith(prefix) && p !== root).map((p) => p.slice(prefix.length));
  }
}

export function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const p of path.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `/${parts.join('/')}`;
}

/**
 * hostPath's checkType (pkg/volume/hostpath): DirectoryOrCreate and FileOrCreate create what is missing (0755
 * directory, empty 0644 file); the other types must already be there. Returns the SetUp error, if any.
 */
export function checkHostPathType(host: HostFilesystem, path: string, type: string | undefined): string | undefined {
  switch (type ?? '') {
    case 'DirectoryOrCreate':
      if (!host.exists(path)) {
        host.mkdirAll(path);
        return undefined;
      }
      return host.isDir(path) ? undefined : `hostPath type check failed: ${path} is not a directory`;
    case 'Directory':
      return host.isDir(path) ? undefined : `hostPath type check failed: ${path} is not a directory`;
    case 'FileOrCreate':
      if (!host.exists(path)) {
        host.writeFile(path, '');
        return undefined;
      }
      return host.isFile(path) ? undefined : `hostPath type check failed: ${path} is not a file`;
    case 'File':
      return host.isFile(path) ? undefined : `hostPath type check failed: ${path} is not a file`;
    case 'Socket':
      return host.isFile(path) && path.endsWith('.sock') ? undefined : `hostPath type check failed: ${path} is not a socket file`;
    case 'CharDevice':
      return host.isFile(path) && path.startsWith('/dev/') ? undefined : `hostPath type check failed: ${path} is not a character device`;
    case 'BlockDevice':
      return `hostPath type check failed: ${path} is not a block device`;
    default:
      return undefined;
  }
}
