import { describe, expect, it } from 'vitest';
import { MvccStore } from '../store/mvcc-store';
import { VirtualClock } from '../sim/virtual-clock';
import { CommitCauses, attachCommitCauses, commitCausesOf } from './commit-causes';

describe('CommitCauses', () => {
  it('remembers the commit event of each recent revision and forgets those overwritten', () => {
    const causes = new CommitCauses(4);
    for (let rev = 1; rev <= 6; rev++) causes.record(rev, rev * 10);
    expect(causes.seqOf(6)).toBe(60);
    expect(causes.seqOf(3)).toBe(30);
    // 1 and 2 shared their slots with 5 and 6.
    expect(causes.seqOf(1)).toBeUndefined();
    expect(causes.seqOf(2)).toBeUndefined();
    expect(causes.seqOf(7)).toBeUndefined();
    expect(causes.seqOf(0)).toBeUndefined();
  });

  it('is found through the store it was attached to', () => {
    const clock = new VirtualClock();
    const store = new MvccStore({ clock });
    const other = new MvccStore({ clock });
    const causes = new CommitCauses();
    attachCommitCauses(store, causes);
    expect(commitCausesOf(store)).toBe(causes);
    expect(commitCausesOf(other)).toBeUndefined();
  });
});
