import { ErrorArea } from './components/ErrorArea';
import { NoticeArea } from './components/NoticeArea';
import { ResetButton } from './features/cluster/ResetButton';
import { ConfigMapForm } from './features/create/ConfigMapForm';
import { ManifestForm } from './features/create/ManifestForm';
import { ObjectsTable } from './features/objects/ObjectsTable';
import { SimControls } from './features/sim/SimControls';
import { selectError, selectNotice } from './state/selectors';
import { appStore, useAppStore } from './state/store';

const dismissError = () => appStore.getState().clearError();

export function App() {
  const error = useAppStore(selectError);
  const notice = useAppStore(selectNotice);
  return (
    <>
      <header className="app-header">
        <h1>kubeplay</h1>
        <SimControls />
        <ResetButton />
      </header>
      <main>
        <ErrorArea error={error} onDismiss={dismissError} />
        <NoticeArea notice={notice} />
        <div className="forms">
          <ConfigMapForm />
          <ManifestForm />
        </div>
        <ObjectsTable />
      </main>
    </>
  );
}
