import { describe, expect, it } from 'vitest';
import { createRng } from '../../sim/rng';
import { AllocationError } from './errors';
import { PortAllocator, portRangeOffset, portRangeString } from './port-allocator';

function errorOf(fn: () => unknown): AllocationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AllocationError) return err;
    throw err;
  }
  throw new Error('expected an AllocationError');
}

describe('PortAllocator', () => {
  it('defaults to 30000-32767 with an 86-port static block', () => {
    const a = new PortAllocator();
    expect(portRangeString(a.range)).toBe('30000-32767');
    expect(a.offset).toBe(86);
    expect(portRangeOffset(2768)).toBe(86);
    expect(a.contains(30000)).toBe(true);
    expect(a.contains(32767)).toBe(true);
    expect(a.contains(32768)).toBe(false);
    expect(a.contains(29999)).toBe(false);
  });

  it('refuses taken and out-of-range ports with the real texts, and frees released ones', () => {
    const a = new PortAllocator();
    a.allocate(30080);
    expect(errorOf(() => a.allocate(30080)).message).toBe('provided port is already allocated');
    expect(errorOf(() => a.allocate(80)).message).toBe('provided port is not in the valid range. The range of valid ports is 30000-32767');
    a.release(30080);
    a.allocate(30080);
    expect(a.used()).toBe(1);
  });

  it('draws deterministic ports above the static block and fills the whole range before failing', () => {
    const a = new PortAllocator({ base: 30000, size: 40 }); // offset 16
    const rng = createRng(5);
    const r = (n: number) => rng.int(n);
    const first = Array.from({ length: 24 }, () => a.allocateNext(r));
    for (const p of first) expect(p).toBeGreaterThanOrEqual(30016);
    const rest = Array.from({ length: 16 }, () => a.allocateNext(r));
    for (const p of rest) expect(p).toBeLessThan(30016);
    expect(new Set([...first, ...rest]).size).toBe(40);
    expect(errorOf(() => a.allocateNext(r)).message).toBe('range is full');

    const b = new PortAllocator({ base: 30000, size: 40 });
    const rng2 = createRng(5);
    expect(Array.from({ length: 24 }, () => b.allocateNext((n) => rng2.int(n)))).toEqual(first);
  });
});
