// "Export cluster" saves every user object as one YAML List file; "Import cluster" sends a file's objects through
// the API server (api/apply: admission, validation, RBAC), never straight into the store.
import { useRef, useState } from 'react';
import type { ChangeEvent } from 'react';
import { toErrorView } from '../../state/errors';
import { appStore } from '../../state/store';
import { useClient } from '../../worker-client/context';
import { importNotice, summarizeImport } from './import-summary';
import './storage.css';

export const EXPORT_FILE_NAME = 'kubeplay-cluster.yaml';

export function ClusterFileActions() {
  const client = useClient();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const exportCluster = async () => {
    setBusy(true);
    try {
      const { yaml, count } = await client.call('cluster/export');
      const url = URL.createObjectURL(new Blob([yaml], { type: 'application/yaml' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = EXPORT_FILE_NAME;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
      appStore.getState().showNotice(`Exported ${count} object${count === 1 ? '' : 's'} to ${EXPORT_FILE_NAME}.`);
    } catch (err) {
      appStore.getState().showError(toErrorView(err));
    } finally {
      setBusy(false);
    }
  };

  const importFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setBusy(true);
    try {
      const summary = summarizeImport(await client.call('api/apply', { manifest: await file.text() }));
      if (summary.failed > 0) {
        appStore.getState().showError({ message: `${importNotice(summary)}\n${summary.errors.join('\n')}`, reason: 'Invalid', code: 422 });
      } else {
        appStore.getState().showNotice(importNotice(summary));
      }
    } catch (err) {
      appStore.getState().showError(toErrorView(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="cluster-file-actions" role="group" aria-label="Cluster file">
      <button type="button" disabled={busy} onClick={exportCluster}>
        Export cluster
      </button>
      <button type="button" disabled={busy} onClick={() => input.current?.click()}>
        Import cluster…
      </button>
      <input ref={input} type="file" accept=".yaml,.yml,.json" hidden aria-label="Cluster file to import" onChange={importFile} />
    </div>
  );
}
