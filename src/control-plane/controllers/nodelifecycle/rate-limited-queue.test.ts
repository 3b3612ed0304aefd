import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/virtual-clock';
import { RateLimitedTimedQueue, TokenBucketRateLimiter } from './rate-limited-queue';
import { ZoneState, computeZoneState, getZoneKey } from './zones';

function queue(qps: number) {
  const clock = new VirtualClock({ startTime: 0 });
  const q = new RateLimitedTimedQueue(new TokenBucketRateLimiter(qps, 1, clock), clock);
  const processed: [string, number][] = [];
  const drain = () => q.try((v) => (processed.push([v.value, clock.now()]), { ok: true }));
  return { clock, q, processed, drain };
}

describe('RateLimitedTimedQueue', () => {
  it('processes one value per token: the first at once, then one every 1/qps', () => {
    const { clock, q, processed, drain } = queue(0.1);
    for (const n of ['a', 'b', 'c']) q.add(n, n);
    drain();
    expect(processed).toEqual([['a', 0]]);
    clock.advance(9_999);
    drain();
    expect(processed.length).toBe(1);
    clock.advance(1);
    drain();
    expect(processed).toEqual([['a', 0], ['b', 10_000]]);
    expect(q.nextAttemptAt()).toBe(20_000);
  });

  it('adds a value only once until it is removed, even after processing', () => {
    const { q, processed, drain } = queue(100);
    expect(q.add('a', 'u')).toBe(true);
    expect(q.add('a', 'u')).toBe(false);
    drain();
    expect(q.add('a', 'u')).toBe(false); // processed, still known
    expect(q.remove('a')).toBe(true);
    expect(q.add('a', 'u')).toBe(true);
    expect(processed.map(([v]) => v)).toEqual(['a']);
  });

  it('retries a failed value after its wait', () => {
    const { clock, q } = queue(1000);
    q.add('a', 'u');
    let calls = 0;
    q.try(() => (calls++, { ok: false, waitMs: 50 }));
    expect(calls).toBe(1);
    expect(q.items()[0].processAt).toBe(51);
    clock.advance(51);
    q.try(() => (calls++, { ok: true }));
    expect(calls).toBe(2);
    expect(q.length).toBe(0);
  });

  it('processes nothing with a 0 qps limiter, and keeps the pace across a swap', () => {
    const { clock, q, processed, drain } = queue(0.1);
    q.add('a', 'a');
    q.add('b', 'b');
    drain(); // a takes the token
    q.swapLimiter(0);
    expect(q.nextAttemptAt()).toBe(Infinity);
    clock.advance(60_000);
    drain();
    expect(processed.length).toBe(1);
    // The old limiter never accepts, so the new one starts with its token spent: b goes 1/qps after the swap.
    q.swapLimiter(0.1);
    drain();
    expect(processed.length).toBe(1);
    clock.advance(10_000);
    drain();
    expect(processed).toEqual([['a', 0], ['b', 70_000]]);
  });
});

describe('zones', () => {
  it('keys nodes by region and zone', () => {
    expect(getZoneKey({ metadata: { labels: { 'topology.kubernetes.io/zone': 'zone-a' } } })).toBe(':\u0000:zone-a');
    expect(getZoneKey({ metadata: { labels: { 'topology.kubernetes.io/region': 'r', 'failure-domain.beta.kubernetes.io/zone': 'old', 'topology.kubernetes.io/zone': 'new' } } })).toBe('r:\u0000:old');
    expect(getZoneKey({ metadata: {} })).toBe('');
  });

  it('computes Normal, PartialDisruption (≥ 0.55 and more than 2 not Ready) and FullDisruption', () => {
    const ready = { type: 'Ready', status: 'True' };
    const unknown = { type: 'Ready', status: 'Unknown' };
    expect(computeZoneState([ready, ready, unknown], 0.55)).toEqual({ notReady: 1, state: ZoneState.Normal });
    expect(computeZoneState([ready, unknown, unknown], 0.55)).toEqual({ notReady: 2, state: ZoneState.Normal });
    expect(computeZoneState([ready, ready, unknown, unknown, unknown], 0.55)).toEqual({ notReady: 3, state: ZoneState.PartialDisruption });
    expect(computeZoneState([ready, ready, ready, unknown, unknown, unknown], 0.55)).toEqual({ notReady: 3, state: ZoneState.Normal });
    expect(computeZoneState([unknown, undefined], 0.55)).toEqual({ notReady: 2, state: ZoneState.FullDisruption });
  });
});
