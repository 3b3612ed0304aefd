import { describe, expect, it } from 'vitest';
import { electLeader } from './leader-election';
import type { LocksLike } from './leader-election';

/** A LockManager for exclusive locks of one name: a holder, then a FIFO line; ifAvailable and signal as specified. */
function fakeLocks(): LocksLike & { holder(): string | undefined } {
  let held: { tag: string } | undefined;
  const line: { tag: { tag: string }; grant: () => void; signal?: AbortSignal }[] = [];
  let n = 0;
  const run = async (tag: { tag: string }, callback: (lock: unknown) => unknown) => {
    held = tag;
    try {
      return await callback({ name: 'lock' });
    } finally {
      held = undefined;
      const next = line.shift();
      next?.grant();
    }
  };
  return {
    holder: () => held?.tag,
    request(_name, options, callback) {
      const tag = { tag: `r${++n}` };
      if (!held) return run(tag, callback);
      if (options.ifAvailable) return Promise.resolve(callback(null));
      return new Promise((resolve, reject) => {
        const entry = { tag, grant: () => resolve(run(tag, callback)), signal: options.signal };
        line.push(entry);
        options.signal?.addEventListener('abort', () => {
          const i = line.indexOf(entry);
          if (i >= 0) line.splice(i, 1);
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    },
  };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('electLeader', () => {
  it('one tab leads, the others follow, and the next in line leads once the leader goes', async () => {
    const locks = fakeLocks();
    const roles: string[] = [];
    const a = electLeader(locks, { onLeader: () => roles.push('a leads'), onFollower: () => roles.push('a follows') });
    await settle();
    const b = electLeader(locks, { onLeader: () => roles.push('b leads'), onFollower: () => roles.push('b follows') });
    const c = electLeader(locks, { onLeader: () => roles.push('c leads'), onFollower: () => roles.push('c follows') });
    await settle();
    expect(roles).toEqual(['a leads', 'b follows', 'c follows']);

    a.abandon(); // the leader's document went away: its lock is released
    await settle();
    expect(roles).toEqual(['a leads', 'b follows', 'c follows', 'b leads']);

    c.abandon(); // a follower leaves the line: it never leads
    b.abandon();
    await settle();
    expect(roles).toEqual(['a leads', 'b follows', 'c follows', 'b leads']);
    expect(locks.holder()).toBeUndefined();
  });
});
