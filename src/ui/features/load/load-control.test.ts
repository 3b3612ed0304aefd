import { describe, expect, it } from 'vitest';
import { currentLoad, loadTarget, parseMillicores } from './load-control';

describe('load control rules', () => {
  it('offers a load on workloads only', () => {
    expect(loadTarget({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'team-a' } })).toEqual({ namespace: 'team-a', kind: 'Deployment', name: 'web' });
    expect(loadTarget({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' } })).toBeUndefined();
  });

  it('reads the load in effect for its target', () => {
    const t = { namespace: 'default', kind: 'StatefulSet', name: 'db' };
    expect(currentLoad([{ ...t, kind: 'Deployment', cpuMillicores: 5 }, { ...t, cpuMillicores: 300 }], t)).toBe(300);
    expect(currentLoad([], t)).toBe(0);
  });

  it('parses whole millicores and refuses the rest', () => {
    expect(parseMillicores(' 1500 ')).toEqual({ value: 1500 });
    expect(parseMillicores('-5')).toEqual({ error: 'Enter a whole number of millicores (0 for no load).' });
    expect(parseMillicores('200000')).toEqual({ error: 'At most 100000 millicores.' });
  });
});
