// The playground's layout: top bar; editor | canvas (Control plane, Objects, Nodes) | inspector; timeline.
// Panel sizes are kept here and changed by the splitters; theme and presentation mode are set on <html>.
import { useEffect, useState } from 'react';
import type { CSSProperties, KeyboardEvent } from 'react';
import { ErrorArea } from './components/ErrorArea';
import { NoticeArea } from './components/NoticeArea';
import { Splitter } from './components/Splitter';
import { RequestFlow } from './features/control-plane/RequestFlow';
import { EditorPanel } from './features/editor/EditorPanel';
import { Inspector } from './features/inspector/Inspector';
import { TopBar } from './features/layout/TopBar';
import { NodesView } from './features/nodes/NodesView';
import { ObjectsView } from './features/objects/ObjectsView';
import { Timeline } from './features/timeline/Timeline';
import { selectError, selectNotice, selectPresentation, selectTheme, selectView } from './state/selectors';
import { appStore, useAppStore } from './state/store';
import type { CanvasView } from './state/ui-slice';

const dismissError = () => appStore.getState().clearError();

const views: { id: CanvasView; label: string }[] = [
  { id: 'control-plane', label: 'Control plane' },
  { id: 'objects', label: 'Objects' },
  { id: 'nodes', label: 'Nodes' },
];

/** The tablist's keyboard pattern: arrows (and Home/End) move to and show the neighbouring view. */
function onTabKey(e: KeyboardEvent<HTMLDivElement>, view: CanvasView) {
  const i = views.findIndex((v) => v.id === view);
  const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: views.length - 1 }[e.key];
  if (next === undefined) return;
  e.preventDefault();
  const target = views[(next + views.length) % views.length];
  appStore.getState().setView(target.id);
  document.getElementById(`view-${target.id}-tab`)?.focus();
}

function CanvasTabs() {
  const view = useAppStore(selectView);
  return (
    <section className="canvas" aria-label="Cluster views">
      <div role="tablist" aria-label="Cluster views" className="tabs" onKeyDown={(e) => onTabKey(e, view)}>
        {views.map((v) => (
          <button
            key={v.id}
            type="button"
            role="tab"
            id={`view-${v.id}-tab`}
            aria-selected={view === v.id}
            aria-controls={`view-${v.id}`}
            tabIndex={view === v.id ? 0 : -1}
            onClick={() => appStore.getState().setView(v.id)}
          >
            {v.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`view-${view}`} aria-labelledby={`view-${view}-tab`} className="canvas-body">
        {view === 'control-plane' && <RequestFlow />}
        {view === 'objects' && <ObjectsView />}
        {view === 'nodes' && <NodesView />}
      </div>
    </section>
  );
}

export function App() {
  const error = useAppStore(selectError);
  const notice = useAppStore(selectNotice);
  const theme = useAppStore(selectTheme);
  const presentation = useAppStore(selectPresentation);
  const [editorWidth, setEditorWidth] = useState(420);
  const [inspectorWidth, setInspectorWidth] = useState(320);
  const [timelineHeight, setTimelineHeight] = useState(170);

  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    document.documentElement.classList.toggle('presentation', presentation);
  }, [presentation]);

  const sizes = {
    '--editor-width': `${editorWidth}px`,
    '--inspector-width': `${inspectorWidth}px`,
    '--timeline-height': `${timelineHeight}px`,
  } as CSSProperties;

  return (
    <div className="app" style={sizes}>
      <TopBar />
      <main className="workspace">
        <EditorPanel />
        <Splitter label="Resize editor" orientation="vertical" value={editorWidth} min={240} max={900} direction={1} onChange={setEditorWidth} />
        <div className="center">
          <ErrorArea error={error} onDismiss={dismissError} />
          <NoticeArea notice={notice} />
          <CanvasTabs />
        </div>
        <Splitter label="Resize inspector" orientation="vertical" value={inspectorWidth} min={200} max={800} direction={-1} onChange={setInspectorWidth} />
        <Inspector />
      </main>
      <Splitter label="Resize timeline" orientation="horizontal" value={timelineHeight} min={80} max={600} direction={-1} onChange={setTimelineHeight} />
      <Timeline />
    </div>
  );
}
