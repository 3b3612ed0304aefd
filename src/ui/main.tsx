// The page's entry: start the cluster worker, mirror its objects into the store, render.
// cluster-connection comes first so the worker starts before the rest of the entry chunk is evaluated.
import { client, reportError } from './cluster-connection';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { defaultManifest } from './features/editor/samples';
import { loadManifest } from './state/editor-slice';
import { appStore } from './state/store';
import { pollComponents, pollSim, syncObjects } from './worker-client/cluster-sync';
import { ClientContext } from './worker-client/context';
import './styles.css';

syncObjects(client, appStore, reportError).catch((err: unknown) => reportError(`Could not reach the cluster: ${err instanceof Error ? err.message : String(err)}`));
pollSim(client, appStore);
pollComponents(client, appStore);
client.onTrace((batch) => appStore.getState().applyTrace(batch));
appStore.setState({ manifest: loadManifest(defaultManifest) });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ClientContext.Provider value={client}>
      <App />
    </ClientContext.Provider>
  </StrictMode>,
);
