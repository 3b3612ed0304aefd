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
import { RecentList } from '../../shared/lib/recent-list';
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
 * A projected volume's serviceAccountToken source as written, without its pod: what is the same for every pod of a
 * template (the pod's own claims are added when the file is read, from the pod: they never change). Shared and
 * frozen (tokenSource), so the written generations of a template's pods are the same lists.
 */
class TokenSource {
  constructor(
    readonly expirationSeconds: number,
    readonly audience: string | undefined,
    readonly mode: number,
  ) {
    Object.freeze(this);
  }
}

/** A few kinds in a cluster (most pods have the default). */
const recentTokenSources = new RecentList<TokenSource>(64);

function tokenSource(expirationSeconds: number, audience: string | undefined, mode: number): TokenSource {
  return (
    recentTokenSources.find((t) => t.expirationSeconds === expirationSeconds && t.audience === audience && t.mode === mode) ??
    recentTokenSources.add(new TokenSource(expirationSeconds, audience, mode))
  );
}

/**
 * The token file of a projected volume. Every pod's kube-api-access volume has one, and nearly none is ever
 * read (kubectl exec cat), so its ~1 KB of text is made on first read and not kept: it is a pure function of
 * the claims. Made only when the files are read; the written generations keep its TokenSource.
 */
class TokenFile implements VolumeFile {
  private readonly claims: TokenClaims;
  readonly mode: number;

  constructor(
    pod: Pod,
    issuedAt: number,
    readonly source: TokenSource,
  ) {
    this.claims = tokenClaimsOf(pod, issuedAt, source.expirationSeconds, source.audience);
    this.mode = source.mode;
  }

  get content(): string {
    return tokenOf(this.claims);
  }

  sameAs(other: TokenFile): boolean {
    const a = this.claims;
    const b = other.claims;
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
        out.set(t.path, new TokenFile(pod, ctx.mountedAt, tokenSource(t.expirationSeconds ?? 3607, t.audience, mode)));
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
 * Map's table (~200 bytes) cost more than the whole list. A token is kept as its TokenSource (the pod's claims are
 * added when read), so the lists of a template's pods are equal, and one is kept for all (sharedPacked). Readers
 * get a Map made from it (unpackFiles).
 */
type PackedFiles = readonly (string | VolumeFile | TokenSource)[];

function packFiles(files: Map<string, VolumeFile>): PackedFiles {
  const out = new Array<string | VolumeFile | TokenSource>(files.size * 2);
  let i = 0;
  for (const [path, file] of files) {
    out[i++] = path;
    out[i++] = file instanceof TokenFile ? file.source : file;
  }
  return sharedPacked(out);
}

function unpackFiles(packed: PackedFiles, pod: Pod, mountedAt: number): Map<string, VolumeFile> {
  const out = new Map<string, VolumeFile>();
  for (let i = 0; i < packed.length; i += 2) {
    const file = packed[i + 1];
    out.set(packed[i] as string, file instanceof TokenSource ? new TokenFile(pod, mountedAt, file) : (file as VolumeFile));
  }
  return out;
}

/** Whether two lists hold the same members (files and token sources are shared, so compared as objects). */
function sameMembers<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Recently written lists, frozen: every pod of a template writes the same files into its service account volume. */
const recentPacked = new RecentList<PackedFiles>(32);

function sharedPacked(list: PackedFiles): PackedFiles {
  return recentPacked.find((p) => sameMembers(p, list)) ?? recentPacked.add(Object.freeze(list));
}

/** A volume's generations once a periodic sync rewrote it (most volumes keep only the first, written at mount). */
interface RewrittenVolume {
  first: PackedFiles;
  later: { at: number; files: PackedFiles }[];
}

/**
 * A pod's written volumes: per volume of its spec, by index, the files first written (at mountedAt), or with the
 * generations since, or undefined for a volume the atomic writer does not write (emptyDir, hostPath, …). The
 * lists of a template's pods are equal, and one is kept for all (sharedGenerations).
 */
type PodGenerations = readonly (PackedFiles | RewrittenVolume | undefined)[];

const recentGenerations = new RecentList<PodGenerations>(32);

function sharedGenerations(list: PodGenerations): PodGenerations {
  return recentGenerations.find((g) => sameMembers(g, list)) ?? recentGenerations.add(Object.freeze(list));
}

/**
 * A pod's mount: when (ms after the store's epoch: a small integer, not a boxed number) and what was written.
 * Frozen, and shared by the pods mounted at the same moment with the same files (a rollout's pods are mounted
 * in bursts); replaced, never changed.
 */
class MountedPod {
  constructor(
    readonly mountedAfterEpoch: number,
    readonly generations: PodGenerations,
  ) {
    Object.freeze(this);
  }
}

const recentMounts = new RecentList<MountedPod>(8);

function sharedMount(mountedAfterEpoch: number, generations: PodGenerations): MountedPod {
  return recentMounts.find((m) => m.mountedAfterEpoch === mountedAfterEpoch && m.generations === generations) ?? recentMounts.add(new MountedPod(mountedAfterEpoch, generations));
}

/** The index of the pod's volume of that name (the spec's volumes have unique names), or -1. */
function volumeIndex(pod: Pod, name: string): number {
  const volumes = pod.spec?.volumes ?? [];
  for (let i = 0; i < volumes.length; i++) if (volumes[i].name === name) return i;
  return -1;
}

/**
 * The kubelet's written volume contents per pod: every generation of each atomic-writer volume, so a reader
 * sees what the last sync wrote and a subPath mount what was there when its container started.
 */
export class VolumeContentStore {
  private readonly pods = new Map<string, MountedPod>();
  /** The first mount's time: mount times are kept as offsets from it, small integers for ~24 days. */
  private epoch: number | undefined;

  /** The volume manager mounted the pod's volumes at `at`: the first generation of each is written. */
  mounted(pod: Pod, at: number, ctx: Omit<ProjectionContext, 'mountedAt'>): void {
    const uid = pod.metadata?.uid ?? '';
    if (this.pods.has(uid)) return;
    const specVolumes = pod.spec?.volumes ?? [];
    const generations = new Array<PackedFiles | undefined>(specVolumes.length);
    for (let i = 0; i < specVolumes.length; i++) {
      const v = specVolumes[i];
      // A repeated name (not valid in a spec) is written once, at its first index. Every index is set (a hole
      // would be skipped by map).
      generations[i] = volumeIndex(pod, v.name) === i && isAtomicVolume(v) ? packFiles(projectVolume(pod, v, { ...ctx, mountedAt: at })) : undefined;
    }
    this.epoch ??= at;
    this.pods.set(uid, sharedMount(at - this.epoch, sharedGenerations(generations)));
  }

  forget(uid: string): void {
    this.pods.delete(uid);
  }

  /** When the pod's volumes were mounted, or undefined when they are not. */
  mountedAt(uid: string): number | undefined {
    const state = this.pods.get(uid);
    return state && this.epoch! + state.mountedAfterEpoch;
  }

  /**
   * Every generation of a volume up to `now`, oldest first. Each periodic sync since the last generation
   * rewrites the volume when the objects (as the sync saw them) differ; an object changed after the latest
   * sync waits for the next one. Downward API sources always reflect the pod as given.
   */
  versions(pod: Pod, volume: Volume, now: number, ctx: Omit<ProjectionContext, 'mountedAt'>): VolumeVersion[] {
    const uid = pod.metadata?.uid ?? '';
    const state = this.pods.get(uid);
    if (!state) return [];
    const mountedAt = this.epoch! + state.mountedAfterEpoch;
    const full: ProjectionContext = { ...ctx, mountedAt };
    const index = volumeIndex(pod, volume.name);
    let gens = index >= 0 ? state.generations[index] : undefined;
    if (!gens) {
      // Not written at mount (not an atomic-writer volume, or not the pod's): written now, at the mount's time.
      gens = packFiles(projectVolume(pod, volume, full));
      if (index >= 0) this.pods.set(uid, new MountedPod(state.mountedAfterEpoch, state.generations.map((g, i) => (i === index ? gens : g))));
    }
    const first = isRewritten(gens) ? gens.first : gens;
    const later = isRewritten(gens) ? gens.later : [];
    const list: VolumeVersion[] = [{ at: mountedAt, files: unpackFiles(first, pod, mountedAt) }];
    for (const g of later) list.push({ at: g.at, files: unpackFiles(g.files, pod, mountedAt) });
    const lastSync = mountedAt + Math.floor((now - mountedAt) / podSyncPeriodMs) * podSyncPeriodMs;
    const latest = list[list.length - 1];
    if (lastSync > latest.at) {
      const ns = pod.metadata?.namespace ?? '';
      const changedAfterSync = sourcesOf(volume).some((s) => (ctx.objects(s.kind, ns, s.name)?.changedAt ?? -Infinity) > lastSync);
      if (!changedAfterSync) {
        const files = projectVolume(pod, volume, full);
        if (!sameFiles(files, latest.files)) {
          list.push({ at: lastSync, files });
          const rewritten: RewrittenVolume = { first, later: [...later, { at: lastSync, files: packFiles(files) }] };
          // This pod's own from now on (the mount it shared stays the others').
          const current = this.pods.get(uid)!;
          if (index >= 0) this.pods.set(uid, new MountedPod(current.mountedAfterEpoch, current.generations.map((g, i) => (i === index ? rewritten : g))));
        }
      }
    }
    // Downward API items follow the pod at once (a label change triggers a sync of the pod).
    return list.map((v) => ({ at: v.at, files: withDownward(pod, volume, v.files, full) }));
  }
}

function isRewritten(g: PackedFiles | RewrittenVolume): g is RewrittenVolume {
  return !Array.isArray(g);
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

/** What every node starts with, shared by the nodes until one changes its own (a Set and a Map cost ~1.2 KiB a node). */
const initialDirs: ReadonlySet<string> = new Set(nodeDirs);
const initialFiles: ReadonlyMap<string, string> = new Map(nodeFiles.map((f) => [f, '']));

/** One node's file system as hostPath volumes see it: persists across pods while the node exists. */
export class HostFilesystem {
  private dirs: ReadonlySet<string> = initialDirs;
  private files: ReadonlyMap<string, string> = initialFiles;

  /** The node's own directories, copied from the initial ones at its first change. */
  private ownDirs(): Set<string> {
    if (this.dirs === initialDirs) this.dirs = new Set(initialDirs);
    return this.dirs as Set<string>;
  }

  private ownFiles(): Map<string, string> {
    if (this.files === initialFiles) this.files = new Map(initialFiles);
    return this.files as Map<string, string>;
  }

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
      this.ownDirs().add(p);
      p = p.slice(0, p.lastIndexOf('/')) || '/';
    }
  }

  writeFile(path: string, content: string): void {
    const p = normalizePath(path);
    this.mkdirAll(p.slice(0, p.lastIndexOf('/')) || '/');
    this.ownFiles().set(p, content);
  }

  removeFile(path: string): void {
    const p = normalizePath(path);
    if (this.files.has(p)) this.ownFiles().delete(p);
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
