// The Objects tab: the object graph by default, the full table one click away ("Graph | Table").
import { memo } from 'react';
import { create } from 'zustand';
import { ObjectGraphView } from './ObjectGraphView';
import { ObjectsTable } from './ObjectsTable';
import './objects.css';

type ObjectsMode = 'graph' | 'table';

/** Kept outside the component so switching tabs keeps the chosen mode. */
const useObjectsMode = create<{ mode: ObjectsMode; setMode(mode: ObjectsMode): void }>((set) => ({
  mode: 'graph',
  setMode: (mode) => set({ mode }),
}));

const modes: { id: ObjectsMode; label: string }[] = [
  { id: 'graph', label: 'Graph' },
  { id: 'table', label: 'Table' },
];

export const ObjectsView = memo(function ObjectsView() {
  const mode = useObjectsMode((s) => s.mode);
  const setMode = useObjectsMode((s) => s.setMode);
  return (
    <div className="objects-view">
      <div className="objects-mode" role="group" aria-label="Objects display">
        {modes.map((m) => (
          <button key={m.id} type="button" className="small" aria-pressed={mode === m.id} onClick={() => setMode(m.id)}>
            {m.label}
          </button>
        ))}
      </div>
      {mode === 'graph' ? <ObjectGraphView /> : <ObjectsTable />}
    </div>
  );
});
