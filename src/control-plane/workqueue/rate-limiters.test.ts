import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../sim/virtual-clock';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
} from './rate-limiters';

describe('ItemExponentialFailureRateLimiter', () => {
  it('doubles per failure from the base delay and caps at the max', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    const delays = Array.from({ length: 20 }, () => l.when('a'));
    expect(delays.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect(delays[17]).toBe(5 * 2 ** 17); // 655 360 ms
    expect(delays[18]).toBe(1_000_000); // 5 × 2^18 = 1 310 720 > cap
    expect(delays[19]).toBe(1_000_000);
    expect(l.numRequeues('a')).toBe(20);
  });

  it('tracks items separately and forgets them', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(1, 1000);
    l.when('a');
    l.when('a');
    expect(l.when('b')).toBe(1);
    expect(l.numRequeues('a')).toBe(2);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
    expect(l.when('a')).toBe(1);
  });

  it('never overflows past the cap', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 1000);
    for (let i = 0; i < 2000; i++) l.when('a');
    expect(l.when('a')).toBe(1000);
  });
});

describe('BucketRateLimiter', () => {
  it('lets a burst through at once, then spaces items at 1/qps on virtual time', () => {
    const clock = new VirtualClock();
    const l = new BucketRateLimiter<string>(clock, 10, 100);
    const burst = Array.from({ length: 100 }, (_, i) => l.when(`k${i}`));
    expect(burst.every((d) => d === 0)).toBe(true);
    expect(l.when('x')).toBeCloseTo(100);
    expect(l.when('y')).toBeCloseTo(200);
    expect(l.numRequeues('x')).toBe(0);
  });

  it('refills tokens as virtual time passes, up to the burst', () => {
    const clock = new VirtualClock();
    const l = new BucketRateLimiter<string>(clock, 10, 3);
    expect([l.when('a'), l.when('a'), l.when('a')]).toEqual([0, 0, 0]);
    expect(l.when('a')).toBeCloseTo(100);
    clock.advance(300); // +3 tokens, from -1 to 2
    expect(l.when('a')).toBe(0);
    expect(l.when('a')).toBe(0);
    expect(l.when('a')).toBeCloseTo(100);
    clock.advance(60_000);
    expect([l.when('a'), l.when('a'), l.when('a')]).toEqual([0, 0, 0]);
    expect(l.when('a')).toBeCloseTo(100);
  });
});

describe('MaxOfRateLimiter / defaultControllerRateLimiter', () => {
  it('takes the larger delay and the larger requeue count, and forgets in all', () => {
    const a = new ItemExponentialFailureRateLimiter<string>(5, 1000);
    const b = new ItemExponentialFailureRateLimiter<string>(7, 1000);
    const m = new MaxOfRateLimiter(a, b);
    expect(m.when('k')).toBe(7);
    expect(m.when('k')).toBe(14);
    expect(m.numRequeues('k')).toBe(2);
    m.forget('k');
    expect(a.numRequeues('k') + b.numRequeues('k')).toBe(0);
  });

  it('default: exponential per item until the overall bucket is exhausted', () => {
    const clock = new VirtualClock();
    const l = defaultControllerRateLimiter<string>(clock);
    expect([l.when('a'), l.when('a'), l.when('a')]).toEqual([5, 10, 20]);
    for (let i = 0; i < 97; i++) l.when(`other${i}`);
    // 100 tokens spent: the next one waits 100 ms on the bucket, more than b's first 5 ms.
    expect(l.when('b')).toBeCloseTo(100);
    expect(l.numRequeues('a')).toBe(3);
  });
});
