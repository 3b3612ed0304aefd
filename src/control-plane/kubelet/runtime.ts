// The node's container runtime (containerd, simulated): the image store that survives reboots, a serial image
// puller (the kubelet's default serializeImagePulls=true: one pull at a time per node), pod IPs from the node's
// pod CIDR as the host-local IPAM plugin hands them out, and container IDs.
import type { Clock, TimerHandle } from '../sim/clock';
import { hexDigest } from './hash';
import { pullDurationMs, resolvePull, type ImageReference, type PullOutcome } from './images';
import type { NodeImage } from './node-status';

export interface StoredImage {
  /** "docker.io/library/nginx:1.14.2". */
  normalized: string;
  repository: string;
  imageID: string;
  sizeBytes: number;
}

export interface PullResult {
  outcome: PullOutcome;
  /** Time the pull itself took. */
  pullMs: number;
  /** Time from the request, including waiting for earlier pulls. */
  totalMs: number;
}

interface PullRequest {
  ref: ImageReference;
  requestedAt: number;
  done: (result: PullResult) => void;
  cancelled: boolean;
}

/** The pause image every sandbox runs, present on every node. */
export const pauseImage = 'registry.k8s.io/pause:3.10';

/** The image store every node starts with (the pause image), shared until a node pulls one of its own. */
let initialImages: ReadonlyMap<string, StoredImage> | undefined;

function initialImageStore(): ReadonlyMap<string, StoredImage> {
  return (initialImages ??= new Map([
    [pauseImage, Object.freeze({ normalized: pauseImage, repository: 'registry.k8s.io/pause', imageID: `registry.k8s.io/pause@sha256:${hexDigest(`image:${pauseImage}`)}`, sizeBytes: 320_368 })],
  ]));
}

export class ContainerRuntime {
  /** The node's images: the shared initial store until its first pull completes (a Map costs ~0.3 KiB a node). */
  private images: ReadonlyMap<string, StoredImage> = initialImageStore();
  private readonly queue: PullRequest[] = [];
  private pulling: { req: PullRequest; timer: TimerHandle } | undefined;
  private readonly usedIPs = new Set<string>();
  private lastIP = 1;
  private containerCount = 0;
  private cidr: { baseNum: number; size: number } | undefined;

  /**
   * @param pullTimeMs The simulated registry's pull time setting: a fixed time for every pull that downloads
   * layers, or undefined for the time by image size. Read at each pull.
   */
  constructor(
    private readonly clock: Clock,
    private readonly nodeName: string,
    private readonly podCIDR: string,
    private readonly pullTimeMs: () => number | undefined = () => undefined,
  ) {}

  image(normalized: string): StoredImage | undefined {
    return this.images.get(normalized);
  }

  /** node.status.images: each image's names (digest and tag) and size. */
  nodeImages(): NodeImage[] {
    return [...this.images.values()].map((img) => ({ names: [img.imageID, img.normalized], sizeBytes: img.sizeBytes }));
  }

  /** Queues a pull; done runs when it finishes (one pull at a time). Returns a cancel function. */
  pull(ref: ImageReference, done: (result: PullResult) => void): () => void {
    const req: PullRequest = { ref, requestedAt: this.clock.now(), done, cancelled: false };
    this.queue.push(req);
    this.pumpPulls();
    return () => {
      req.cancelled = true;
    };
  }

  private pumpPulls(): void {
    while (!this.pulling && this.queue.length > 0) {
      const req = this.queue.shift()!;
      if (req.cancelled) continue;
      const outcome = resolvePull(req.ref);
      // Layers already in the content store (an earlier pull of the same image) only need the manifest checked.
      const ms = outcome.ok && this.images.has(outcome.ref.normalized) ? 250 : outcome.ok ? (this.pullTimeMs() ?? pullDurationMs(outcome)) : pullDurationMs(outcome);
      const startedAt = this.clock.now();
      const timer = this.clock.setTimer(ms, () => {
        this.pulling = undefined;
        if (outcome.ok) {
          if (this.images === initialImages) this.images = new Map(this.images);
          (this.images as Map<string, StoredImage>).set(outcome.ref.normalized, {
            normalized: outcome.ref.normalized,
            repository: outcome.ref.repository,
            imageID: outcome.imageID,
            sizeBytes: outcome.sizeBytes,
          });
        }
        const now = this.clock.now();
        if (!req.cancelled) req.done({ outcome, pullMs: now - startedAt, totalMs: now - req.requestedAt });
        this.pumpPulls();
      }, `runtime/${this.nodeName} pull ${req.ref.normalized}`);
      this.pulling = { req, timer };
    }
  }

  /** The node died: pulls in flight are lost (the image store stays on disk). */
  reset(): void {
    if (this.pulling) this.clock.clearTimer(this.pulling.timer);
    this.pulling = undefined;
    this.queue.length = 0;
    this.usedIPs.clear();
  }

  /** Next free IP of the pod CIDR, host-local style: round robin from .2, skipping those in use. */
  allocateIP(): string | undefined {
    this.cidr ??= parseCIDR(this.podCIDR);
    const { baseNum, size } = this.cidr;
    for (let step = 0; step < size; step++) {
      let offset = ((this.lastIP + step) % (size - 2)) + 1;
      if (offset < 2) offset = 2;
      const n = baseNum + offset;
      const ip = [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
      if (this.usedIPs.has(ip)) continue;
      this.usedIPs.add(ip);
      this.lastIP = offset;
      return ip;
    }
    return undefined;
  }

  releaseIP(ip: string | undefined): void {
    if (ip) this.usedIPs.delete(ip);
  }

  /** Marks an IP as in use (a pod whose status already has it). */
  reserveIP(ip: string): boolean {
    if (this.usedIPs.has(ip)) return false;
    this.usedIPs.add(ip);
    return true;
  }

  /** A new container ID: "containerd://<64 hex>". */
  newContainerID(podUID: string, container: string, attempt: number): string {
    return hexDigest(`${this.nodeName}/${podUID}/${container}/${attempt}/${++this.containerCount}`, 64, 'containerd://');
  }
}

function parseCIDR(cidr: string): { baseNum: number; size: number } {
  const [base, bitsText] = cidr.split('/');
  const octets = base.split('.').map(Number);
  return { baseNum: ((octets[0] << 24) >>> 0) + (octets[1] << 16) + (octets[2] << 8) + octets[3], size: 2 ** (32 - Number(bitsText)) };
}
