// ControllerExpectations (pkg/controller/controller_utils.go): a controller that creates or deletes N objects
// records that it expects to see N watch events before it trusts its cache again. Until then sync(key) must
// not act on the (stale) cache, or it would create the same pods twice.
//
//   replicas 5, cache shows 2 pods → expectCreations(rsKey, 3), create 3 pods
//   each pod's ADDED event → creationObserved(rsKey); after the third, satisfiedExpectations(rsKey) is true
//
// Expectations expire after 5 minutes (ExpectationsTimeout), so a lost event cannot wedge a controller.
import type { Clock } from '../../sim/clock';

export const ExpectationsTimeoutMs = 5 * 60_000;

interface Expectation {
  add: number;
  del: number;
  timestamp: number;
}

export class ControllerExpectations {
  private readonly store = new Map<string, Expectation>();

  constructor(private readonly clock: Clock) {}

  /** Whether sync(key) may act: no record, all expected events observed, or the record expired. */
  satisfiedExpectations(key: string): boolean {
    const e = this.store.get(key);
    if (!e) return true; // a new controller or one whose expectations were deleted
    if (e.add <= 0 && e.del <= 0) return true;
    return this.clock.now() - e.timestamp > ExpectationsTimeoutMs;
  }

  getExpectations(key: string): { add: number; del: number } | undefined {
    const e = this.store.get(key);
    return e && { add: e.add, del: e.del };
  }

  setExpectations(key: string, add: number, del: number): void {
    this.store.set(key, { add, del, timestamp: this.clock.now() });
  }

  expectCreations(key: string, adds: number): void {
    this.setExpectations(key, adds, 0);
  }

  expectDeletions(key: string, dels: number): void {
    this.setExpectations(key, 0, dels);
  }

  raiseExpectations(key: string, add: number, del: number): void {
    const e = this.store.get(key);
    if (!e) return;
    e.add += add;
    e.del += del;
  }

  lowerExpectations(key: string, add: number, del: number): void {
    const e = this.store.get(key);
    if (!e) return;
    e.add -= add;
    e.del -= del;
  }

  creationObserved(key: string): void {
    this.lowerExpectations(key, 1, 0);
  }

  deletionObserved(key: string): void {
    this.lowerExpectations(key, 0, 1);
  }

  /** Forgets the key (its owner was deleted). */
  deleteExpectations(key: string): void {
    this.store.delete(key);
  }
}
