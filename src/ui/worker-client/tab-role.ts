// Which part this tab plays in the many-tabs setup, for the role status (features/tabs) and tests.
export const TabRole = {
  /** Not yet known (the lock request is in flight). */
  Connecting: 'connecting',
  /** This tab runs the control plane. */
  Leader: 'leader',
  /** Another tab runs it; this one follows it through the relay. */
  Follower: 'follower',
  /** This tab stopped (a newer version took the database, or another tab took over): it must be reloaded. */
  Reload: 'reload',
} as const;
export type TabRole = (typeof TabRole)[keyof typeof TabRole];

export interface TabRoleState {
  role: TabRole;
  /** Why a reload is needed. */
  message?: string;
}

export interface TabRoleStore {
  get(): TabRoleState;
  set(state: TabRoleState): void;
  subscribe(listener: () => void): () => void;
}

export function createTabRoleStore(): TabRoleStore {
  let state: TabRoleState = { role: TabRole.Connecting };
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      state = next;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's role (set by connection.ts). */
export const tabRole = createTabRoleStore();

/**
 * What the worker posts (outside the protocol's message union) when its database stopped being its own: a newer
 * version of the app opened it ('versionchange'), or a newer leader claimed it ('fenced'). It serves no more.
 */
export interface ControlPlaneLostMessage {
  type: 'control-plane/lost';
  reason: 'versionchange' | 'fenced';
}

export function isControlPlaneLost(data: unknown): data is ControlPlaneLostMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'control-plane/lost';
}
