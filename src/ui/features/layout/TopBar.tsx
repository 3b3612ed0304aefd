// The top bar: cluster name, simulated time and its controls, the acting user, theme, presentation, reset.
import { useEffect, useState } from 'react';
import { ResetButton } from '../cluster/ResetButton';
import { ClusterSettingsButton } from '../settings/ClusterSettingsDialog';
import { SimControls } from '../sim/SimControls';
import type { Theme } from '../../state/ui-slice';
import { selectPresentation, selectTheme } from '../../state/selectors';
import { appStore, useAppStore } from '../../state/store';
import { useClient } from '../../worker-client/context';

function ActingUser() {
  const client = useClient();
  const [user, setUser] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    client
      .call('cluster/info')
      .then((info) => live && setUser(info.user.username))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [client]);
  return (
    <p className="acting-user" aria-label="Acting user">
      <span className="muted">User</span> <span className="mono">{user ?? '…'}</span>
    </p>
  );
}

export function TopBar() {
  const theme = useAppStore(selectTheme);
  const presentation = useAppStore(selectPresentation);
  return (
    <header className="top-bar">
      <h1>kubeplay</h1>
      <SimControls />
      <ActingUser />
      <label className="inline-label">
        Theme{' '}
        <select value={theme} onChange={(e) => appStore.getState().setTheme(e.target.value as Theme)}>
          <option value="system">System</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
      </label>
      <button type="button" aria-pressed={presentation} onClick={() => appStore.getState().setPresentation(!presentation)}>
        Presentation mode
      </button>
      <ClusterSettingsButton />
      <ResetButton />
    </header>
  );
}
