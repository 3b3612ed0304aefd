import { describe, expect, it } from 'vitest';
import { WorkerPhase } from '../../worker-client/worker-supervisor';
import { BannerKind, bannerText } from './banner-text';

describe('bannerText', () => {
  const base = { phase: WorkerPhase.Running, restarts: 0, storage: {} };
  it('says nothing while all is well', () => {
    expect(bannerText(base, 0)).toBeUndefined();
  });
  it('the worker’s life comes first: restarting, then restarted until dismissed, then gave up', () => {
    expect(bannerText({ ...base, phase: WorkerPhase.Restarting, restarts: 1, storage: { alarm: 'nospace' } }, 0)?.title).toBe('The cluster stopped unexpectedly; restarting from the saved state');
    expect(bannerText({ ...base, restarts: 1, reason: 'it stopped answering' }, 0)?.kind).toBe(BannerKind.Restarted);
    expect(bannerText({ ...base, restarts: 1 }, 1)).toBeUndefined();
    expect(bannerText({ ...base, phase: WorkerPhase.Failed, restarts: 3 }, 3)?.kind).toBe(BannerKind.Failed);
  });
  it('storage alarms: full disk and cleared storage', () => {
    expect(bannerText({ ...base, storage: { alarm: 'nospace', message: 'm' } }, 0)).toEqual({ kind: BannerKind.NoSpace, title: 'Storage full: the cluster is read-only', detail: 'm' });
    expect(bannerText({ ...base, storage: { alarm: 'cleared' } }, 0)?.title).toBe('The cluster storage was cleared');
  });
});
