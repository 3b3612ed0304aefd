// The Objects tab: the object graph by default, the full table one click away ("Graph | Table").
import { memo } from 'react';
import { ObjectGraphView } from './ObjectGraphView';
import { ObjectsTable } from './ObjectsTable';
import { ObjectsMode, useObjectsView } from './objects-view-state';
import './objects.css';

const modes: { id: ObjectsMode; label: string }[] = [
  { id: ObjectsMode.Graph, label: 'Graph' },
  { id: ObjectsMode.Table, label: 'Table' },
];

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
      {mode === ObjectsMode.Graph ? <ObjectGraphView /> : <ObjectsTable />}
    </div>
  );
});
