// UIDTrackingControllerExpectations (pkg/controller/controller_utils.go): ControllerExpectations that also
// remember WHICH pods a controller expects to see deleted. A graceful deletion is observed twice — first as an
// update setting deletionTimestamp, then as the DELETED event — and only the first sighting of a key expected
// to go may lower the count:
//
//   expectDeletions(rsKey, ["default/web-a", "default/web-b"])        → del 2
//   web-a update with deletionTimestamp → deletionObserved(rsKey, "default/web-a")   → del 1
//   web-a DELETED                         → deletionObserved(rsKey, "default/web-a")   → ignored (already seen)
import type { Clock } from '../../sim/clock';
import { ControllerExpectations } from './expectations';

export class UIDTrackingControllerExpectations {
  readonly expectations: ControllerExpectations;
  /** Controller key → keys of the pods it expects to be deleted and has not yet seen go. */
  private readonly uidStore = new Map<string, Set<string>>();

  constructor(clock: Clock) {
    this.expectations = new ControllerExpectations(clock);
  }

  satisfiedExpectations(key: string): boolean {
    return this.expectations.satisfiedExpectations(key);
  }

  getExpectations(key: string): { add: number; del: number } | undefined {
    return this.expectations.getExpectations(key);
  }

  expectCreations(key: string, adds: number): void {
    this.expectations.expectCreations(key, adds);
  }

  creationObserved(key: string): void {
    this.expectations.creationObserved(key);
  }

  /** The pod keys still expected to be deleted. */
  getUIDs(key: string): ReadonlySet<string> | undefined {
    return this.uidStore.get(key);
  }

  /** Expects the deletion of exactly these pods. Replaces any earlier set (Kubernetes logs that as an error). */
  expectDeletions(key: string, deletedKeys: readonly string[]): void {
    this.uidStore.set(key, new Set(deletedKeys));
    this.expectations.expectDeletions(key, deletedKeys.length);
  }

  /** Records that a pod has gone (or is going); counts only once per expected pod. */
  deletionObserved(key: string, deleteKey: string): void {
    const uids = this.uidStore.get(key);
    if (uids && uids.has(deleteKey)) {
      uids.delete(deleteKey);
      this.expectations.deletionObserved(key);
    }
  }

  /** Forgets everything about the controller (it was deleted). */
  deleteExpectations(key: string): void {
    this.expectations.deleteExpectations(key);
    this.uidStore.delete(key);
  }
}
