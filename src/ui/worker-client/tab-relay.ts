// Carries the UI ⇄ worker protocol between tabs over a BroadcastChannel. The leader tab (the one holding the Web
// Lock, leader-election.ts) serves each follower tab through its own mux endpoint (tab-mux.ts); a follower opens a
// session with the leader it was told about and talks to it as if the leader's worker were its own. Every message
// names its sender and receiver tab, and a session id, so messages of an older session (a follower that
// reconnected, a leader that went away) are ignored.
import type { ClientMessage, WorkerMessage } from '../../shared/protocol/messages';
import type { TabMux, MuxEndpoint } from './tab-mux';

export const RELAY_CHANNEL = 'kubeplay-tabs';

export type RelayMessage =
  /** A follower asks which tab leads. */
  | { kind: 'who' }
  /** The leader answers 'who', and says so when it takes over. */
  | { kind: 'leader'; leader: string }
  /** A follower (re)opens its session with the leader: the leader drops the tab's previous one and greets. */
  | { kind: 'hello'; from: string; to: string; session: string }
  | { kind: 'up'; from: string; to: string; session: string; message: ClientMessage }
  | { kind: 'down'; from: string; to: string; session: string; message: WorkerMessage }
  /** The follower tab is going away. */
  | { kind: 'bye'; from: string; to: string }
  /** A newer version of the app took the database: every tab of this version must reload. */
  | { kind: 'reload'; reason: string };

/** What a BroadcastChannel offers (and the fake channels of the tests). */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

/** One side's view of the protocol connection: it posts ClientMessages; the WorkerMessages go to the callback given at creation. */
export interface Transport {
  post(message: ClientMessage): void;
  close(): void;
}

function isRelayMessage(data: unknown): data is RelayMessage {
  return typeof data === 'object' && data !== null && typeof (data as { kind?: unknown }).kind === 'string';
}

/** Leader side: serves every follower session through the mux and announces itself. Returns stop. */
export function serveFollowers(channel: ChannelLike, leader: string, mux: TabMux): { stop(): void } {
  const sessions = new Map<string, { session: string; endpoint: MuxEndpoint }>();
  const onMessage = (event: { data: unknown }) => {
    const msg = event.data;
    if (!isRelayMessage(msg)) return;
    switch (msg.kind) {
      case 'who':
        channel.postMessage({ kind: 'leader', leader } satisfies RelayMessage);
        return;
      case 'hello': {
        if (msg.to !== leader) return;
        sessions.get(msg.from)?.endpoint.close();
        const { from, session } = msg;
        const endpoint = mux.connect(from, (message) => channel.postMessage({ kind: 'down', from: leader, to: from, session, message } satisfies RelayMessage));
        sessions.set(from, { session, endpoint });
        return;
      }
      case 'up': {
        if (msg.to !== leader) return;
        const s = sessions.get(msg.from);
        if (s && s.session === msg.session) s.endpoint.post(msg.message);
        return;
      }
      case 'bye': {
        if (msg.to !== leader) return;
        sessions.get(msg.from)?.endpoint.close();
        sessions.delete(msg.from);
        return;
      }
    }
  };
  channel.addEventListener('message', onMessage);
  channel.postMessage({ kind: 'leader', leader } satisfies RelayMessage);
  return {
    stop() {
      channel.removeEventListener('message', onMessage);
      for (const s of sessions.values()) s.endpoint.close();
      sessions.clear();
    },
  };
}

/** Follower side: a session with `leader`, opened at once. */
export function connectToLeader(channel: ChannelLike, self: string, leader: string, session: string, deliver: (message: WorkerMessage) => void): Transport {
  let closed = false;
  const onMessage = (event: { data: unknown }) => {
    const msg = event.data;
    if (closed || !isRelayMessage(msg) || msg.kind !== 'down') return;
    if (msg.to === self && msg.from === leader && msg.session === session) deliver(msg.message);
  };
  channel.addEventListener('message', onMessage);
  channel.postMessage({ kind: 'hello', from: self, to: leader, session } satisfies RelayMessage);
  return {
    post(message) {
      if (!closed) channel.postMessage({ kind: 'up', from: self, to: leader, session, message } satisfies RelayMessage);
    },
    close() {
      if (closed) return;
      closed = true;
      channel.removeEventListener('message', onMessage);
      channel.postMessage({ kind: 'bye', from: self, to: leader } satisfies RelayMessage);
    },
  };
}

/** Calls `onLeader` with each leader announcement (asking once at the start); returns stop. */
export function watchLeader(channel: ChannelLike, onLeader: (leader: string) => void, onReload?: (reason: string) => void): () => void {
  const onMessage = (event: { data: unknown }) => {
    const msg = event.data;
    if (!isRelayMessage(msg)) return;
    if (msg.kind === 'leader') onLeader(msg.leader);
    else if (msg.kind === 'reload') onReload?.(msg.reason);
  };
  channel.addEventListener('message', onMessage);
  channel.postMessage({ kind: 'who' } satisfies RelayMessage);
  return () => channel.removeEventListener('message', onMessage);
}
