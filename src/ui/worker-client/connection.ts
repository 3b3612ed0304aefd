// Starts the cluster worker and the protocol client the whole page shares. The worker is the only place the
// cluster lives; the page holds nothing but what watches deliver. A supervisor stands between the two: when the
// worker dies it starts another from the saved state and resynchronises the page (worker-supervisor.ts).
// Only one tab runs the worker: the leader, elected with a Web Lock (leader-election.ts). Its page serves the
// other tabs through a BroadcastChannel relay (tab-mux.ts, tab-relay.ts); a follower's client talks to the
// leader's worker through it. The client sits on a LeaderPort (leader-port.ts), which re-attaches and relists
// when the control plane moves (the leader closed and this tab, or another, took over).
import { createProtocolClient } from '../../shared/protocol/client';
import type { ProtocolClient } from '../../shared/protocol/client';
import { requestPersistentStorage } from './persistent-storage';
import { setWorkerHealth } from './worker-health';
import { WorkerPhase, WorkerSupervisor } from './worker-supervisor';
import type { WorkerLike } from './worker-supervisor';
import { electLeader } from './leader-election';
import type { Election, LocksLike } from './leader-election';
import { createLeaderPort } from './leader-port';
import { createTabMux } from './tab-mux';
import type { TabMux } from './tab-mux';
import { connectToLeader, RELAY_CHANNEL, serveFollowers, watchLeader } from './tab-relay';
import type { RelayMessage } from './tab-relay';
import { isControlPlaneLost, TabRole, tabRole } from './tab-role';

export interface Connection {
  client: ProtocolClient;
  /** Stops listening to page lifecycle events and terminates the worker. */
  dispose(): void;
}

const NEWER_VERSION = 'A newer version of kubeplay opened in another tab. Reload this tab to use it.';

export function connect(onWorkerError: (message: string) => void): Connection {
  const port = createLeaderPort();
  const client = createProtocolClient(port);
  const self = crypto.randomUUID();
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(RELAY_CHANNEL) : undefined;
  const locks = (navigator as { locks?: LocksLike }).locks;
  let leading: { supervisor: WorkerSupervisor; mux: TabMux; stopServing?: () => void } | undefined;
  let stopFollowing: (() => void) | undefined;
  let election: Election | undefined;
  void requestPersistentStorage();

  /** This tab got the lock: start the worker (it claims a new leader epoch) and serve the other tabs. */
  const lead = () => {
    stopFollowing?.();
    stopFollowing = undefined;
    tabRole.set({ role: TabRole.Leader });
    const supervisor = new WorkerSupervisor({
      createWorker: () => new Worker(new URL('../../worker/worker.ts', import.meta.url), { type: 'module', name: 'kubeplay-cluster' }) as WorkerLike,
      replay: false, // the LeaderPort re-synchronises the client on every ready
      onHealth: (state) => {
        setWorkerHealth(state);
        if (state.phase === WorkerPhase.Failed) onWorkerError(`The cluster worker failed: ${state.reason ?? 'it could not start'}`);
      },
    });
    const mux = createTabMux(supervisor, (data) => {
      if (!isControlPlaneLost(data)) return;
      if (data.reason === 'versionchange') {
        // Tell the other tabs of this version first: none of them may take the lock and open the old schema.
        channel?.postMessage({ kind: 'reload', reason: 'versionchange' } satisfies RelayMessage);
        stop(NEWER_VERSION);
      } else {
        stop('Another tab took over the control plane. Reload this tab.');
      }
    });
    port.attach((deliver) => mux.connect(self, deliver));
    leading = { supervisor, mux, stopServing: channel ? serveFollowers(channel, self, mux).stop : undefined };
  };

  /** Another tab leads: follow whichever tab announces itself as the leader. */
  let leader: string | undefined;
  const follow = () => {
    tabRole.set({ role: TabRole.Follower });
    stopFollowing = watchLeader(
      channel!,
      (announced) => {
        if (announced === leader || leading) return;
        leader = announced;
        port.attach((deliver) => connectToLeader(channel!, self, announced, crypto.randomUUID(), deliver));
      },
    );
  };

  /** This tab stops taking part (the database belongs to a newer version or a newer leader). */
  const stop = (message: string) => {
    election?.abandon();
    stopFollowing?.();
    stopFollowing = undefined;
    if (leading) {
      leading.stopServing?.();
      leading.mux.close();
      leading.supervisor.dispose();
      leading = undefined;
    }
    port.detach(message);
    tabRole.set({ role: TabRole.Reload, message });
  };

  // Whatever role this tab has by then (it may just have taken the lock), a newer version owns the database now.
  const onReload = (event: MessageEvent) => {
    if ((event.data as RelayMessage | undefined)?.kind === 'reload') stop(NEWER_VERSION);
  };
  channel?.addEventListener('message', onReload);
  if (locks && channel) election = electLeader(locks, { onLeader: lead, onFollower: follow });
  else lead();

  // Acknowledged writes are durable already; this also saves the latest clock time and anything in flight
  // before the tab may be discarded.
  const flush = () => {
    client.call('cluster/flush').catch(() => {});
  };
  // A follower leaving says bye, so the leader stops serving its watches; back from the back/forward cache, it
  // asks who leads and relists.
  const onPageHide = () => {
    if (leading || !stopFollowing) return flush();
    port.detach('the page was hidden');
    leader = undefined;
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted && stopFollowing && !leading) channel?.postMessage({ kind: 'who' } satisfies RelayMessage);
  };
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') {
      flush();
      port.pause();
    } else {
      port.resume();
    }
  };
  if (document.visibilityState === 'hidden') port.pause();
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  document.addEventListener('visibilitychange', onVisibility);

  return {
    client,
    dispose() {
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('pageshow', onPageShow);
      document.removeEventListener('visibilitychange', onVisibility);
      election?.abandon();
      stopFollowing?.();
      leading?.stopServing?.();
      leading?.mux.close();
      leading?.supervisor.dispose();
      port.detach('the page is closing');
      channel?.close();
      client.close();
    },
  };
}
