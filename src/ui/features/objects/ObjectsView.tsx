// The Objects tab: the object graph by default, the full table one click away ("Graph | Table").
// The graph (React Flow and its layout) is a chunk of its own, behind a Suspense boundary of this view: the tab
// and its Graph/Table switch are on the first paint, the canvas follows as soon as its chunk is in, and the
// first paint's JavaScript does not carry React Flow.
import { memo, Suspense } from 'react';
import { preloadable } from '../../components/preloadable';
import { ObjectsTable } from './ObjectsTable';
import { ObjectsMode, useObjectsView } from './objects-view-state';
import './objects.css';

/** The graph's chunk; App preloads it with the other views' right after the first paint. */
export const ObjectGraphChunk = preloadable(() => import('./ObjectGraphView').then((m) => m.ObjectGraphView));

const modes: { id: ObjectsMode; label: string }[] = [
  { id: ObjectsMode.Graph, label: 'Graph' },
  { id: ObjectsMode.Table, label: 'Table' },
];

function GraphLoading() {
  return <p className="muted">Loading the graph…</p>;
}

export const ObjectsView = memo(function ObjectsView() {
  const mode = useObjectsView((s) => s.mode);
  const setMode = useObjectsView((s) => s.setMode);
  return (
    <div className="objects-view">
      <div className="objects-mode" role="group" aria-label="Objects display">
        {modes.map((m) => (
          <button key={m.id} type="button" className="small" aria-pressed={mode === m.id} onClick={() => setMode(m.id)}>
            {m.label}
          </button>
        ))}
      </div>
      {mode === ObjectsMode.Graph ? (
        <Suspense fallback={<GraphLoading />}>
          <ObjectGraphChunk.Component />
        </Suspense>
      ) : (
        <ObjectsTable />
      )}
    </div>
  );
});
