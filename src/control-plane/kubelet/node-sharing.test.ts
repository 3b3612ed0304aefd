import { describe, expect, it } from 'vitest';
import type { NodeCondition } from 'kubernetes-types/core/v1';
import { conditionStatuses, statusOfType } from './kubelet';
import { HostFilesystem } from './volume-contents';
import { Backoff } from './backoff';

describe('what the nodes share until one changes its own', () => {
  it('condition statuses: one frozen list for equal reports', () => {
    const conditions = (ready: string): NodeCondition[] => [
      { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', lastHeartbeatTime: 't1', lastTransitionTime: 't0' },
      { type: 'Ready', status: ready, reason: 'KubeletReady', lastHeartbeatTime: 't2', lastTransitionTime: 't0' },
    ];
    const a = conditionStatuses(conditions('True'));
    expect(a).toEqual(['MemoryPressure', 'False', 'Ready', 'True']);
    expect(Object.isFrozen(a)).toBe(true);
    expect(conditionStatuses(conditions('True'))).toBe(a);
    const b = conditionStatuses(conditions('False'));
    expect(b).not.toBe(a);
    expect(statusOfType(b, 'Ready')).toBe('False');
    expect(statusOfType(b, 'DiskPressure')).toBeUndefined();
  });

  it('host file systems start alike and change apart', () => {
    const one = new HostFilesystem();
    const two = new HostFilesystem();
    one.writeFile('/var/log/app/out.log', 'x');
    one.removeFile('/etc/hosts');
    expect(one.isFile('/var/log/app/out.log')).toBe(true);
    expect(one.isDir('/var/log/app')).toBe(true);
    expect(one.isFile('/etc/hosts')).toBe(false);
    expect(two.isFile('/var/log/app/out.log')).toBe(false);
    expect(two.isDir('/var/log/app')).toBe(false);
    expect(two.isFile('/etc/hosts')).toBe(true);
    expect(new HostFilesystem().dirsUnder('/var/log')).toEqual([]);
    two.mkdirAll('/srv/data/x');
    expect(two.dirsUnder('/srv').sort()).toEqual(['data', 'data/x']);
    expect(one.dirsUnder('/srv')).toEqual([]);
  });

  it('a back-off without entries answers as an empty one', () => {
    const b = new Backoff();
    expect(b.get('k')).toBe(0);
    expect(b.isInBackOffSince('k', 0, 1)).toBe(false);
    expect(b.isInBackOffSinceUpdate('k', 1)).toBe(false);
    expect(b.lastUpdate('k')).toBeUndefined();
    b.delete('k');
    b.deletePrefix('k');
    b.next('k', 0, 0);
    expect(b.get('k')).toBe(10_000);
  });
});
