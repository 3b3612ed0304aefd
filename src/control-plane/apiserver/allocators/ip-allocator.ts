// The service ClusterIP allocator (pkg/registry/core/service/ipallocator, the bitmap Range): a contiguous block of
// IPv4 addresses of one CIDR, without the network and broadcast addresses. AllocateNext picks a random free address
// from the upper part of the range first and from the first `offset` addresses (kept for static requests such as
// 10.96.0.1 and 10.96.0.10) only when the upper part is full, as randomScanStrategyWithOffset does.
import { AllocationError, AllocationErrorReason } from './errors';

export function parseIPv4(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const v = Number(p);
    if (v > 255) return undefined;
    n = n * 256 + v;
  }
  return n;
}

export function formatIPv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** calculateRangeOffset: size/16 clamped to [16, 256]; ranges under 16 addresses get no static block. */
export function ipRangeOffset(cidrSize: number): number {
  if (cidrSize < 16) return 0;
  return Math.min(256, Math.max(16, Math.floor(cidrSize / 16)));
}

export class IPRangeAllocator {
  readonly cidr: string;
  /** The first allocatable address (network + 1). */
  private readonly base: number;
  /** Number of allocatable addresses. */
  readonly max: number;
  readonly offset: number;
  private readonly network: number;
  private readonly size: number;
  private readonly allocated = new Set<number>();

  constructor(cidr: string) {
    const [addr, bitsText] = cidr.split('/');
    const bits = Number(bitsText);
    const ip = parseIPv4(addr ?? '');
    if (ip === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) throw new Error(`invalid CIDR ${cidr}`);
    this.size = 2 ** (32 - bits);
    this.network = ip - (ip % this.size);
    this.cidr = `${formatIPv4(this.network)}/${bits}`;
    // IPv4 ranges lose the network and broadcast addresses (except /31 and /32).
    const reserved = this.size > 2 ? 2 : 0;
    this.base = this.network + (reserved ? 1 : 0);
    this.max = this.size - reserved;
    this.offset = ipRangeOffset(this.size);
  }

  /** Whether ip is an allocatable address of the range (ErrNotInRange otherwise). */
  contains(ip: string): boolean {
    return this.index(ip) !== undefined;
  }

  has(ip: string): boolean {
    const i = this.index(ip);
    return i !== undefined && this.allocated.has(i);
  }

  used(): number {
    return this.allocated.size;
  }

  /** Allocate one requested address. */
  allocate(ip: string): void {
    const i = this.index(ip);
    if (i === undefined) {
      throw new AllocationError(
        AllocationErrorReason.NotInRange,
        `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.cidr}`,
      );
    }
    if (this.allocated.has(i)) throw new AllocationError(AllocationErrorReason.Allocated, 'provided IP is already allocated');
    this.allocated.add(i);
  }

  /** Allocate a free address; rand(n) is an integer in [0, n) from the cluster's seeded randomness. */
  allocateNext(rand: (n: number) => number): string {
    const at = scanFree(this.allocated, this.max, this.offset, rand);
    if (at === undefined) throw new AllocationError(AllocationErrorReason.Full, 'range is full');
    this.allocated.add(at);
    return formatIPv4(this.base + at);
  }

  release(ip: string): void {
    const i = this.index(ip);
    if (i !== undefined) this.allocated.delete(i);
  }

  private index(ip: string): number | undefined {
    const n = parseIPv4(ip);
    if (n === undefined || n < this.network || n >= this.network + this.size) return undefined;
    const i = n - this.base;
    return i >= 0 && i < this.max ? i : undefined;
  }
}

/**
 * randomScanStrategyWithOffset.AllocateBit: a random start in [offset, max) scanning forward (wrapping inside the
 * upper block), then a random start in [0, offset). Returns the bit index or undefined when everything is taken.
 */
export function scanFree(allocated: ReadonlySet<number>, max: number, requestedOffset: number, rand: (n: number) => number): number | undefined {
  if (allocated.size >= max) return undefined;
  // A range smaller than its static block is all static.
  const offset = Math.min(requestedOffset, max);
  const upper = max - offset;
  if (upper > 0) {
    const start = rand(upper);
    for (let i = 0; i < upper; i++) {
      const at = offset + ((start + i) % upper);
      if (!allocated.has(at)) return at;
    }
  }
  if (offset > 0) {
    const start = rand(offset);
    for (let i = 0; i < offset; i++) {
      const at = (start + i) % offset;
      if (!allocated.has(at)) return at;
    }
  }
  return undefined;
}
