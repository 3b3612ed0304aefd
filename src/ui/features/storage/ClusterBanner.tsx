// The banner for trouble the page cannot fix by itself: the worker died (and is restarting, or gave up), the disk
// is full (the cluster is read-only), or the browser cleared the cluster's storage.
import { useState, useSyncExternalStore } from 'react';
import { toErrorView } from '../../state/errors';
import { appStore } from '../../state/store';
import { useClient } from '../../worker-client/context';
import { getWorkerHealth, subscribeWorkerHealth } from '../../worker-client/worker-health';
import { BannerKind, bannerText } from './banner-text';
import './storage.css';

export function ClusterBanner() {
  const client = useClient();
  const health = useSyncExternalStore(subscribeWorkerHealth, getWorkerHealth);
  const [restartsSeen, setRestartsSeen] = useState(0);
  const [busy, setBusy] = useState(false);
  const text = bannerText(health, restartsSeen);
  if (!text) return null;

  const retry = async () => {
    setBusy(true);
    try {
      const status = await client.call('storage/retry');
      if (!status.alarm) appStore.getState().showNotice('Saving works again: the cluster is writable.');
    } catch (err) {
      appStore.getState().showError(toErrorView(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div role="alert" aria-label={text.title} className="cluster-banner">
      <p>
        <strong>{text.title}</strong>
        {text.detail ? ` ${text.detail}` : ''}
      </p>
      {text.kind === BannerKind.NoSpace && (
        <button type="button" disabled={busy} onClick={retry}>
          Retry saving
        </button>
      )}
      {text.kind === BannerKind.Restarted && (
        <button type="button" onClick={() => setRestartsSeen(health.restarts)}>
          Dismiss
        </button>
      )}
      {text.kind === BannerKind.Failed && (
        <button type="button" onClick={() => window.location.reload()}>
          Reload page
        </button>
      )}
    </div>
  );
}
