// pkg/controller/job/tracking_utils.go: the pods whose job-tracking finalizer the controller has asked to
// remove and whose update it has not seen yet. Until it sees them, a sync must not count those pods again:
//
//   sync 1: pod p Succeeded → status.uncountedTerminatedPods.succeeded [p], finalizer removal of p requested
//   sync 2 (cache still shows p with the finalizer): p is in the expected set → skipped, not counted twice
//   pod update without the finalizer → finalizerRemovalObserved(job, p)

export class UidTrackingExpectations {
  private readonly store = new Map<string, Set<string>>();

  getExpectedUIDs(jobKey: string): ReadonlySet<string> {
    return new Set(this.store.get(jobKey) ?? []);
  }

  expectFinalizersRemoved(jobKey: string, uids: readonly string[]): void {
    let set = this.store.get(jobKey);
    if (!set) {
      set = new Set();
      this.store.set(jobKey, set);
    }
    for (const u of uids) set.add(u);
  }

  finalizerRemovalObserved(jobKey: string, uid: string): void {
    this.store.get(jobKey)?.delete(uid);
  }

  deleteExpectations(jobKey: string): void {
    this.store.delete(jobKey);
  }
}
