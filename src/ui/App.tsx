// The playground's layout: top bar; editor | canvas (Control plane, Objects, Nodes) | inspector; timeline.
// Panel sizes are kept here and changed by the splitters; theme and presentation mode are set on <html>.
// What the first paint does not show (the Control plane and Nodes views; the inspector, which brings the YAML
// parser) comes in chunks fetched right after it (usePreloadAfterFirstPaint), each behind a Suspense boundary of
// its own so nothing else on the page unmounts while one loads, and each rendering synchronously once in
// (components/preloadable). The Objects view, shown first, stays in the entry chunk (its Graph/Table switch is on
// the first paint); its graph canvas is a chunk of its own behind the view's own Suspense (ObjectsView).
import { Suspense, useEffect, useState } from 'react';
import type { CSSProperties, KeyboardEvent } from 'react';
import { ErrorArea } from './components/ErrorArea';
import { NoticeArea } from './components/NoticeArea';
import { preloadable } from './components/preloadable';
import { Splitter } from './components/Splitter';
import { EditorPanel } from './features/editor/EditorPanel';
import { TopBar } from './features/layout/TopBar';
import { ClusterBanner } from './features/storage/ClusterBanner';
import { TabRoleStatus } from './features/tabs/TabRoleStatus';
import { ClusterFileActions } from './features/storage/ClusterFileActions';
import { ObjectGraphChunk, ObjectsView } from './features/objects/ObjectsView';
import { Timeline } from './features/timeline/Timeline';
import { selectError, selectNotice, selectPresentation, selectTheme, selectView } from './state/selectors';
import { appStore, useAppStore } from './state/store';
import type { CanvasView } from './state/ui-slice';

const dismissError = () => appStore.getState().clearError();

const RequestFlow = preloadable(() => import('./features/control-plane/RequestFlow').then((m) => m.RequestFlow));
const NodesView = preloadable(() => import('./features/nodes/NodesView').then((m) => m.NodesView));
const Inspector = preloadable(() => import('./features/inspector/Inspector').then((m) => m.Inspector));

/** Fetches the chunks the first paint left out, once a frame after the first commit has been drawn: they never
 *  delay the first paint and are in before anyone can click a tab. */
function usePreloadAfterFirstPaint(): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        for (const chunk of [ObjectGraphChunk, Inspector, RequestFlow, NodesView]) chunk.preload().catch(() => {});
      }, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
}

function ViewLoading() {
  return <p className="muted">Loading the view…</p>;
}

/** Holds the inspector's place (same box, same name) for the moment its chunk is still on the way. */
function InspectorLoading() {
  return (
    <aside className="inspector" aria-label="Inspector" aria-busy="true">
      <div className="panel-bar">
        <h2>Inspector</h2>
      </div>
    </aside>
  );
}

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

/** The view's box is the layout's, whatever it shows: a change inside (a graph of a thousand pods) lays out there only. */
const contained = { contain: 'strict' } as const;

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
      <div role="tabpanel" id={`view-${view}`} aria-labelledby={`view-${view}-tab`} className="canvas-body" style={contained}>
        <Suspense fallback={<ViewLoading />}>
          {view === 'control-plane' && <RequestFlow.Component />}
          {view === 'objects' && <ObjectsView />}
          {view === 'nodes' && <NodesView.Component />}
        </Suspense>
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
  usePreloadAfterFirstPaint();

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
          <TabRoleStatus />
          <ClusterBanner />
          <ErrorArea error={error} onDismiss={dismissError} />
          <NoticeArea notice={notice} />
          <ClusterFileActions />
          <CanvasTabs />
        </div>
        <Splitter label="Resize inspector" orientation="vertical" value={inspectorWidth} min={200} max={800} direction={-1} onChange={setInspectorWidth} />
        <Suspense fallback={<InspectorLoading />}>
          <Inspector.Component />
        </Suspense>
      </main>
      <Splitter label="Resize timeline" orientation="horizontal" value={timelineHeight} min={80} max={600} direction={-1} onChange={setTimelineHeight} />
      <Timeline />
    </div>
  );
}
