// What the cluster banner says for a worker health state: the worker's life (stopped, restarting, given up) comes
// before storage trouble, which only the running worker can report.
import { StorageAlarm } from '../../../shared/protocol/storage';
import type { WorkerHealthState } from '../../worker-client/worker-supervisor';
import { WORKER_STOPPED_MESSAGE, WorkerPhase } from '../../worker-client/worker-supervisor';

export const BannerKind = {
  Restarting: 'restarting',
  Restarted: 'restarted',
  Failed: 'failed',
  NoSpace: 'nospace',
  Cleared: 'cleared',
} as const;
export type BannerKind = (typeof BannerKind)[keyof typeof BannerKind];

export interface BannerText {
  kind: BannerKind;
  /** The banner's accessible name. */
  title: string;
  detail?: string;
}

/** `restartsSeen`: restarts the user already dismissed the notice for. */
export function bannerText(state: WorkerHealthState, restartsSeen: number): BannerText | undefined {
  if (state.phase === WorkerPhase.Failed) {
    return { kind: BannerKind.Failed, title: 'The cluster stopped unexpectedly and could not be restarted', detail: `${state.reason ?? ''}; reload the page.` };
  }
  if (state.phase === WorkerPhase.Restarting) {
    return { kind: BannerKind.Restarting, title: WORKER_STOPPED_MESSAGE, detail: state.reason ? `The worker ${state.reason}.` : undefined };
  }
  if (state.storage.alarm === StorageAlarm.NoSpace) return { kind: BannerKind.NoSpace, title: 'Storage full: the cluster is read-only', detail: state.storage.message };
  if (state.storage.alarm === StorageAlarm.Cleared) return { kind: BannerKind.Cleared, title: 'The cluster storage was cleared', detail: state.storage.message };
  if (state.restarts > restartsSeen) {
    return {
      kind: BannerKind.Restarted,
      title: 'The cluster stopped unexpectedly and was restarted from the saved state',
      detail: state.reason ? `The worker ${state.reason}. Every acknowledged change was kept; the views were reloaded.` : undefined,
    };
  }
  return undefined;
}
