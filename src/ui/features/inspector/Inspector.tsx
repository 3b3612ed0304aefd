// The inspector: the selected object's live YAML, re-rendered whenever the watch delivers a new version. The YAML
// printer comes in its own chunk, loaded when the first object is inspected.
import { lazy, Suspense } from 'react';
import { selectSelectedObject, selectSelection } from '../../state/selectors';
import { appStore, useAppStore } from '../../state/store';

const ObjectYaml = lazy(() => import('./ObjectYaml'));

export function Inspector() {
  const selection = useAppStore(selectSelection);
  const obj = useAppStore(selectSelectedObject);
  return (
    <aside className="inspector" aria-labelledby="inspector-title">
      <div className="panel-bar">
        <h2 id="inspector-title">Inspector</h2>
        {selection && (
          <button type="button" className="small" onClick={() => appStore.getState().select(undefined)}>
            Close inspector
          </button>
        )}
      </div>
      {!selection ? (
        <p className="muted">Select an object to see its live YAML.</p>
      ) : !obj ? (
        <p className="muted">{selection.key} no longer exists.</p>
      ) : (
        <>
          <h3 className="mono">
            {obj.kind}/{obj.metadata.name}
          </h3>
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <ObjectYaml object={obj} />
          </Suspense>
        </>
      )}
    </aside>
  );
}
