import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../sim/virtual-clock';
import { ControllerExpectations, ExpectationsTimeoutMs } from './expectations';

describe('ControllerExpectations', () => {
  it('is satisfied without a record, and once every expected creation was observed', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const exp = new ControllerExpectations(clock);
    expect(exp.satisfiedExpectations('ns/rs')).toBe(true);
    exp.expectCreations('ns/rs', 3);
    exp.creationObserved('ns/rs');
    exp.creationObserved('ns/rs');
    expect(exp.satisfiedExpectations('ns/rs')).toBe(false);
    expect(exp.getExpectations('ns/rs')).toEqual({ add: 1, del: 0 });
    exp.creationObserved('ns/rs');
    expect(exp.satisfiedExpectations('ns/rs')).toBe(true);
  });

  it('tracks deletions, raises and lowers, and forgets deleted keys', () => {
    const exp = new ControllerExpectations(new VirtualClock({ startTime: 0 }));
    exp.expectDeletions('k', 2);
    exp.raiseExpectations('k', 1, 0);
    exp.deletionObserved('k');
    exp.deletionObserved('k');
    expect(exp.satisfiedExpectations('k')).toBe(false);
    exp.lowerExpectations('k', 1, 0);
    expect(exp.satisfiedExpectations('k')).toBe(true);
    exp.expectCreations('k', 5);
    exp.deleteExpectations('k');
    expect(exp.getExpectations('k')).toBeUndefined();
    expect(exp.satisfiedExpectations('k')).toBe(true);
    exp.creationObserved('nothing'); // no record: ignored
    expect(exp.getExpectations('nothing')).toBeUndefined();
  });

  it('expires unmet expectations after five minutes of virtual time', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const exp = new ControllerExpectations(clock);
    exp.expectCreations('k', 1);
    clock.advance(ExpectationsTimeoutMs);
    expect(exp.satisfiedExpectations('k')).toBe(false);
    clock.advance(1);
    expect(exp.satisfiedExpectations('k')).toBe(true);
  });
});
