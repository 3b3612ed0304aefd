import { describe, expect, it } from 'vitest';
import { EventRateWindow } from './event-rate';

describe('EventRateWindow', () => {
  it('counts creations of the last 60 seconds, forgetting older seconds as time moves', () => {
    const w = new EventRateWindow();
    const t0 = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 5; i++) w.record(t0 + i * 100);
    w.record(t0 + 30_000);
    expect(w.count(t0 + 30_000)).toBe(6);
    expect(w.count(t0 + 59_999)).toBe(6);
    expect(w.count(t0 + 60_000)).toBe(1); // second t0 left the window
    expect(w.count(t0 + 90_000)).toBe(0);
    // A bucket reused a minute later starts from zero.
    w.record(t0 + 120_000);
    expect(w.count(t0 + 120_000)).toBe(1);
  });
});
