// The service NodePort allocator (pkg/registry/core/service/portallocator): ports base…base+size-1 in a bitmap.
// AllocateNext prefers the upper part of the range; the first `offset` ports (size/32 clamped to [16, 128]) are
// left for ports users ask for by number, as the real allocator's randomScanStrategyWithOffset does.
import { AllocationError, AllocationErrorReason } from './errors';
import { scanFree } from './ip-allocator';

export interface PortRange {
  base: number;
  size: number;
}

/** --service-node-port-range default: 30000-32767. */
export const defaultServiceNodePortRange: PortRange = { base: 30000, size: 2768 };

export function portRangeString(r: PortRange): string {
  return `${r.base}-${r.base + r.size - 1}`;
}

export function portRangeOffset(size: number): number {
  if (size < 16) return 0;
  return Math.min(128, Math.max(16, Math.floor(size / 32)));
}

export class PortAllocator {
  readonly offset: number;
  private readonly allocated = new Set<number>();

  constructor(readonly range: PortRange = defaultServiceNodePortRange) {
    this.offset = portRangeOffset(range.size);
  }

  contains(port: number): boolean {
    return Number.isInteger(port) && port >= this.range.base && port < this.range.base + this.range.size;
  }

  has(port: number): boolean {
    return this.allocated.has(port - this.range.base);
  }

  used(): number {
    return this.allocated.size;
  }

  allocate(port: number): void {
    if (!this.contains(port)) {
      throw new AllocationError(
        AllocationErrorReason.NotInRange,
        `provided port is not in the valid range. The range of valid ports is ${portRangeString(this.range)}`,
      );
    }
    const i = port - this.range.base;
    if (this.allocated.has(i)) throw new AllocationError(AllocationErrorReason.Allocated, 'provided port is already allocated');
    this.allocated.add(i);
  }

  /** A free port; rand(n) is an integer in [0, n) from the cluster's seeded randomness. */
  allocateNext(rand: (n: number) => number): number {
    const at = scanFree(this.allocated, this.range.size, this.offset, rand);
    if (at === undefined) throw new AllocationError(AllocationErrorReason.Full, 'range is full');
    this.allocated.add(at);
    return this.range.base + at;
  }

  release(port: number): void {
    if (this.contains(port)) this.allocated.delete(port - this.range.base);
  }
}
