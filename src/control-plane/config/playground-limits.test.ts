import { describe, expect, it } from 'vitest';
import { StatusError } from '../../shared/api/status';
import { LivePlaygroundLimits } from './live-playground-limits';
import { defaultPlaygroundLimits, noPlaygroundLimits, playgroundLimitsView, resolvePlaygroundLimits, validatePlaygroundLimits } from './playground-limits';

describe('playground limits', () => {
  it('defaults to caps a learner does not meet and benchmarks can raise', () => {
    expect(defaultPlaygroundLimits).toEqual({ maxObjects: 50_000, maxStoredBytes: 256 * 1024 * 1024, maxReplicasPerWorkload: 5_000, maxEventsPerMinute: 12_000 });
    expect(resolvePlaygroundLimits({ maxReplicasPerWorkload: 50_000 })).toEqual({ ...defaultPlaygroundLimits, maxReplicasPerWorkload: 50_000 });
    expect(resolvePlaygroundLimits(noPlaygroundLimits).maxObjects).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses wrong values with field errors and a 400', () => {
    expect(validatePlaygroundLimits({ maxObjects: 0, maxEventsPerMinute: 1.5, bogus: 1 }).map((e) => e.field)).toEqual(['maxObjects', 'maxEventsPerMinute', 'bogus']);
    expect(() => resolvePlaygroundLimits({ maxObjects: -1 })).toThrow(StatusError);
    expect(() => resolvePlaygroundLimits({ maxObjects: -1 })).toThrow('maxObjects: Invalid value: -1');
  });

  it('applies a live change at once and keeps the old limits when a field is wrong', () => {
    const live = new LivePlaygroundLimits({ maxObjects: 10 });
    live.configure({ maxObjects: 20, maxEventsPerMinute: undefined });
    expect(live.get()).toEqual({ ...defaultPlaygroundLimits, maxObjects: 20 });
    expect(() => live.configure({ maxObjects: 30, maxStoredBytes: 'lots' })).toThrow(StatusError);
    expect(live.get().maxObjects).toBe(20);
  });

  it('views every limit with its usage (none for the per-workload cap)', () => {
    const view = playgroundLimitsView(defaultPlaygroundLimits, { objects: 12, storedBytes: 3456, eventsLastMinute: 7 });
    expect(view.limits.map((l) => [l.key, l.label, l.limit, l.used])).toEqual([
      ['maxObjects', 'objects', 50_000, 12],
      ['maxStoredBytes', 'stored bytes', 256 * 1024 * 1024, 3456],
      ['maxReplicasPerWorkload', 'replicas per workload', 5_000, undefined],
      ['maxEventsPerMinute', 'events per minute', 12_000, 7],
    ]);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });
});
