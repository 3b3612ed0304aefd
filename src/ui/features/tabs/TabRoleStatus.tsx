// Says which part this tab plays when the app is open in several tabs: it runs the control plane, it follows
// the tab that does, or it stopped and must be reloaded (a newer version took the database).
import { useSyncExternalStore } from 'react';
import { TabRole, tabRole } from '../../worker-client/tab-role';
import type { TabRoleState } from '../../worker-client/tab-role';
import './tabs.css';

export function roleText(state: TabRoleState): string | undefined {
  switch (state.role) {
    case TabRole.Leader:
      return 'Control plane runs in this tab';
    case TabRole.Follower:
      return 'Control plane runs in another tab';
    case TabRole.Reload:
      return state.message ?? 'Reload this tab';
    default:
      return undefined;
  }
}

export function TabRoleStatus() {
  const state = useSyncExternalStore(tabRole.subscribe, tabRole.get, tabRole.get);
  const text = roleText(state);
  if (!text) return null;
  if (state.role === TabRole.Reload) {
    return (
      <div role="alert" aria-label={text} className="tab-role tab-role-reload">
        <p>{text}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload tab
        </button>
      </div>
    );
  }
  // The leader's line is a note, not a status: the page's own status region (action results) stays the only one
  // in a single tab. A follower's role is news: it is announced.
  return (
    <p role={state.role === TabRole.Follower ? 'status' : 'note'} aria-label={text} className={`tab-role tab-role-${state.role}`}>
      {text}
    </p>
  );
}
