import { describe, expect, it } from 'vitest';
import { RecentValues } from './recent-values';

describe('RecentValues', () => {
  it('hands back one frozen copy for values with the same JSON text', () => {
    const recent = new RecentValues(2);
    const a = { component: 'kubelet', host: 'node-1' };
    const first = recent.intern(a);
    expect(first).not.toBe(a); // the caller's object is never frozen
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toEqual(a);
    expect(recent.intern({ component: 'kubelet', host: 'node-1' })).toBe(first);
  });

  it('keeps key order: a value with the same members in another order is its own', () => {
    const recent = new RecentValues(2);
    const first = recent.intern({ component: 'kubelet', host: 'node-1' });
    const swapped = recent.intern({ host: 'node-1', component: 'kubelet' });
    expect(swapped).not.toBe(first);
    expect(JSON.stringify(swapped)).toBe('{"host":"node-1","component":"kubelet"}');
  });

  it('remembers only the last few, and leaves nested values alone', () => {
    const recent = new RecentValues(2);
    const a = recent.intern({ name: 'a' });
    recent.intern({ name: 'b' });
    recent.intern({ name: 'c' });
    expect(recent.intern({ name: 'a' })).not.toBe(a);
    const nested = { name: 'x', labels: { app: 'web' } };
    expect(recent.intern(nested)).toBe(nested);
  });
});
