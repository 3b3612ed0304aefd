import { describe, expect, it } from 'vitest';
import { EventSourceObjectSpamFilter, maxLruCacheEntries, spamKey } from './spam-filter';

const kubelet = { component: 'kubelet', host: 'node-1' };
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', namespace: 'default', name, uid: `uid-${name}` });

describe('EventSourceObjectSpamFilter', () => {
  it('lets a burst of 25 events per source and object through, then one per 5 minutes', () => {
    const f = new EventSourceObjectSpamFilter();
    const t0 = 1_000_000;
    const passed = Array.from({ length: 30 }, () => !f.filter(kubelet, pod('web'), t0)).filter(Boolean).length;
    expect(passed).toBe(25);
    expect(f.filter(kubelet, pod('web'), t0 + 299_000)).toBe(true); // not a whole token yet
    expect(f.filter(kubelet, pod('web'), t0 + 300_000)).toBe(false); // one token refilled after 5 min
    expect(f.filter(kubelet, pod('web'), t0 + 300_001)).toBe(true);
    // Another object, or another source about the same object, has its own bucket.
    expect(f.filter(kubelet, pod('db'), t0)).toBe(false);
    expect(f.filter({ component: 'default-scheduler' }, pod('web'), t0)).toBe(false);
  });

  it('refills to at most the burst', () => {
    const f = new EventSourceObjectSpamFilter({ burst: 2 });
    expect(f.filter(kubelet, pod('web'), 0)).toBe(false);
    const later = 100 * 300_000;
    expect([0, 1, 2].map(() => f.filter(kubelet, pod('web'), later))).toEqual([false, false, true]);
  });

  it('keys on source and object only, as getSpamKey (reason and message do not matter)', () => {
    expect(spamKey(kubelet, pod('web'))).toBe('kubeletnode-1Poddefaultwebuid-webv1');
    expect(spamKey({ component: 'kubelet', host: 'node-1' }, { ...pod('web'), fieldPath: 'spec.containers{nginx}' })).toBe(spamKey(kubelet, pod('web')));
  });

  it('forgets the least recently used key beyond the cache size, which then starts full again', () => {
    const f = new EventSourceObjectSpamFilter({ burst: 1, cacheSize: 2 });
    expect(f.filter(kubelet, pod('a'), 0)).toBe(false);
    expect(f.filter(kubelet, pod('a'), 0)).toBe(true);
    f.filter(kubelet, pod('b'), 0);
    f.filter(kubelet, pod('c'), 0); // evicts a
    expect(f.size).toBe(2);
    expect(f.filter(kubelet, pod('a'), 0)).toBe(false);
  });

  it('holds at most 4,096 keys by default, evicting the least recently used (a hit is a use)', () => {
    const f = new EventSourceObjectSpamFilter({ burst: 1 });
    for (let i = 0; i < maxLruCacheEntries; i++) expect(f.filter(kubelet, pod(`p${i}`), 0)).toBe(false);
    expect(f.size).toBe(maxLruCacheEntries);
    // Every bucket is empty and still remembered: the same objects are filtered.
    expect(f.filter(kubelet, pod('p0'), 0)).toBe(true); // p0 is now the most recently used; p1 the least
    expect(f.filter(kubelet, pod('new'), 0)).toBe(false); // evicts p1
    expect(f.size).toBe(maxLruCacheEntries);
    expect(f.filter(kubelet, pod('p2'), 0)).toBe(true); // kept
    expect(f.filter(kubelet, pod('p0'), 0)).toBe(true); // kept
    expect(f.filter(kubelet, pod('p1'), 0)).toBe(false); // forgotten: a full bucket again (evicts p3)
    expect(f.filter(kubelet, pod('p3'), 0)).toBe(false);
  });
});
