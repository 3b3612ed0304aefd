import { useState } from 'react';
import { toErrorView } from '../../state/errors';
import { appStore } from '../../state/store';
import { useClient } from '../../worker-client/context';

/** Wipes the persisted cluster and boots a fresh one, after the user confirms. */
export function ResetButton() {
  const client = useClient();
  const [busy, setBusy] = useState(false);

  const reset = async () => {
    if (!window.confirm('Reset the cluster? Every object is deleted and a fresh cluster starts.')) return;
    setBusy(true);
    try {
      await client.call('cluster/reset');
      appStore.getState().showNotice('The cluster was reset.');
    } catch (err) {
      appStore.getState().showError(toErrorView(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <button type="button" className="danger" disabled={busy} onClick={reset}>
      Reset cluster
    </button>
  );
}
