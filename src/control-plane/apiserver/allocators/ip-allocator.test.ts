import { describe, expect, it } from 'vitest';
import { createRng } from '../../sim/rng';
import { AllocationError } from './errors';
import { IPRangeAllocator, formatIPv4, ipRangeOffset, parseIPv4 } from './ip-allocator';

const rand = (seed: number) => {
  const rng = createRng(seed);
  return (n: number) => rng.int(n);
};

function errorOf(fn: () => unknown): AllocationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AllocationError) return err;
    throw err;
  }
  throw new Error('expected an AllocationError');
}

describe('IPRangeAllocator', () => {
  it('covers 10.96.0.0/12 without the network and broadcast addresses', () => {
    const a = new IPRangeAllocator('10.96.0.0/12');
    expect(a.cidr).toBe('10.96.0.0/12');
    expect(a.max).toBe(2 ** 20 - 2);
    expect(a.offset).toBe(256);
    expect(a.contains('10.96.0.1')).toBe(true);
    expect(a.contains('10.111.255.254')).toBe(true);
    expect(a.contains('10.96.0.0')).toBe(false);
    expect(a.contains('10.111.255.255')).toBe(false);
    expect(a.contains('10.112.0.1')).toBe(false);
    expect(parseIPv4('10.96.0.300')).toBeUndefined();
    expect(formatIPv4(parseIPv4('192.168.49.1')!)).toBe('192.168.49.1');
  });

  it('reserves a requested address once and refuses it again or outside the range with the real texts', () => {
    const a = new IPRangeAllocator('10.96.0.0/12');
    a.allocate('10.96.0.10');
    expect(a.has('10.96.0.10')).toBe(true);
    expect(errorOf(() => a.allocate('10.96.0.10')).message).toBe('provided IP is already allocated');
    expect(errorOf(() => a.allocate('10.0.0.1')).message).toBe('the provided IP (10.0.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12');
    a.release('10.96.0.10');
    expect(a.has('10.96.0.10')).toBe(false);
    a.allocate('10.96.0.10');
  });

  it('draws random addresses from above the static block, the same for the same seed', () => {
    const draw = (seed: number) => {
      const a = new IPRangeAllocator('10.96.0.0/12');
      const r = rand(seed);
      return Array.from({ length: 20 }, () => a.allocateNext(r));
    };
    const first = draw(3);
    expect(draw(3)).toEqual(first);
    expect(draw(4)).not.toEqual(first);
    expect(new Set(first).size).toBe(20);
    const lowStatic = parseIPv4('10.96.0.1')! + 256;
    for (const ip of first) expect(parseIPv4(ip)!).toBeGreaterThanOrEqual(lowStatic);
  });

  it('falls back to the static block when the upper part is full, then reports a full range', () => {
    const a = new IPRangeAllocator('10.0.0.0/24'); // 254 usable, a 16-address static block
    expect(a.offset).toBe(16);
    const r = rand(1);
    const upper = Array.from({ length: 238 }, () => a.allocateNext(r));
    for (const ip of upper) expect(parseIPv4(ip)!).toBeGreaterThanOrEqual(parseIPv4('10.0.0.17')!);
    const lower = Array.from({ length: 16 }, () => a.allocateNext(r));
    for (const ip of lower) expect(parseIPv4(ip)!).toBeLessThan(parseIPv4('10.0.0.17')!);
    expect(new Set([...upper, ...lower]).size).toBe(254);
    for (const ip of [...upper, ...lower]) expect(a.contains(ip)).toBe(true);
    expect(errorOf(() => a.allocateNext(r)).message).toBe('range is full');
  });

  it('a /28 (smaller than its 16-address static block) hands out exactly its 14 addresses', () => {
    const a = new IPRangeAllocator('10.0.0.0/28');
    const r = rand(9);
    const got = Array.from({ length: 14 }, () => a.allocateNext(r));
    expect(new Set(got).size).toBe(14);
    for (const ip of got) expect(a.contains(ip)).toBe(true);
    expect(errorOf(() => a.allocateNext(r)).message).toBe('range is full');
  });

  it('small ranges keep no static block', () => {
    expect(ipRangeOffset(8)).toBe(0);
    const a = new IPRangeAllocator('10.0.0.0/29');
    const r = rand(2);
    expect(new Set(Array.from({ length: 6 }, () => a.allocateNext(r))).size).toBe(6);
    expect(errorOf(() => a.allocateNext(r)).message).toBe('range is full');
  });
});
