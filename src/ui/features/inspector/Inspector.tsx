// The inspector: the selected object, live — a header (kind/name, namespace, age, status, Edit and Delete), then
// sections as tabs: Summary (conditions), YAML (or the edit form), Events, Relations, Scheduling (pods), Why.
// Everything re-renders from the store as watch batches arrive; Scheduling and Why ask the worker on demand.
import { lazy, memo, Suspense, useCallback, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import { age } from '../../../shared/lib/duration';
import { objectStatus } from '../../lib/object-status';
import { selectSelectedObject, selectSelection } from '../../state/selectors';
import { appStore, useAppStore } from '../../state/store';
import type { ObjectSelection } from '../../state/ui-slice';
import { DeleteDialog } from './DeleteDialog';
import { EditForm } from './EditForm';
import { EventsPanel } from './EventsPanel';
import { RelationsPanel } from './RelationsPanel';
import { SchedulingPanel } from './SchedulingPanel';
import { InspectorTab, useInspectorUi } from './state';
import { SummaryPanel } from './SummaryPanel';
import { WhyPanel } from './WhyPanel';
import { TrafficPanel } from '../traffic/TrafficPanel';
import { trafficUi } from '../traffic/traffic-state';
import { trafficKinds } from '../traffic/traffic-target';
import { editableYaml } from './edit';
import { LoadControl } from '../load/LoadControl';
import { loadKinds } from '../load/load-control';
import './inspector.css';

const ObjectYaml = lazy(() => import('./ObjectYaml'));

const allTabs: { id: InspectorTab; label: string }[] = [
  { id: InspectorTab.Summary, label: 'Summary' },
  { id: InspectorTab.Yaml, label: 'YAML' },
  { id: InspectorTab.Events, label: 'Events' },
  { id: InspectorTab.Relations, label: 'Relations' },
  { id: InspectorTab.Scheduling, label: 'Scheduling' },
  { id: InspectorTab.Why, label: 'Why' },
];

export function selectionId(sel: ObjectSelection): string {
  return `${sel.resourceKey}|${sel.key}`;
}

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
      ) : (
        <>
          {!obj ? <p className="muted">{selection.key} no longer exists.</p> : <InspectedObject key={selectionId(selection)} selection={selection} obj={obj} />}
          <Output id={selectionId(selection)} />
        </>
      )}
      <TrafficPanel />
    </aside>
  );
}

/** What the last Edit or Delete answered, like kubectl's output; kept after the object is gone. */
const Output = memo(function Output({ id }: { id: string }) {
  const outputFor = useInspectorUi((s) => s.outputFor);
  const output = useInspectorUi((s) => s.output);
  const lines = outputFor === id ? output : [];
  return (
    <div role="log" aria-label="Inspector output" className="inspector-output" hidden={lines.length === 0}>
      {lines.map((l, i) => (
        <p key={i} className={l.ok ? 'ok' : 'failed'}>
          {l.text}
        </p>
      ))}
    </div>
  );
});

interface Editing {
  text: string;
  /** The object as it was when the edit started: its resourceVersion goes with the PUT. */
  original: KubeObject;
}

function InspectedObject({ selection, obj }: { selection: ObjectSelection; obj: KubeObject }) {
  const chosen = useInspectorUi((s) => s.tab);
  const setTab = useInspectorUi((s) => s.setTab);
  const [editing, setEditing] = useState<Editing | undefined>();
  const [deleting, setDeleting] = useState(false);
  const isPod = obj.kind === 'Pod' && selection.resourceKey === '/pods';
  const tabs = isPod ? allTabs : allTabs.filter((t) => t.id !== InspectorTab.Scheduling);
  const tab = tabs.some((t) => t.id === chosen) ? chosen : InspectorTab.Summary;
  const label = `${obj.kind.toLowerCase()}/${obj.metadata.name ?? ''}`;

  const startEdit = useCallback(() => {
    setEditing({ text: editableYaml(obj), original: obj });
    setTab(InspectorTab.Yaml);
  }, [obj, setTab]);

  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const i = tabs.findIndex((t) => t.id === tab);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const target = tabs[(next + tabs.length) % tabs.length];
    setTab(target.id);
    document.getElementById(`inspector-tab-${target.id}`)?.focus();
  };

  return (
    <div className="inspected">
      <header className="inspector-header">
        <h3 className="mono">
          {obj.kind}/{obj.metadata.name}
        </h3>
        <dl className="inspector-facts">
          {obj.metadata.namespace && (
            <div>
              <dt>Namespace</dt>
              <dd>{obj.metadata.namespace}</dd>
            </div>
          )}
          <div>
            <dt>Age</dt>
            <dd>
              <LiveAge since={obj.metadata.creationTimestamp} />
            </dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd className="inspector-status">{statusSummary(obj)}</dd>
          </div>
        </dl>
        <div className="inspector-actions">
          <button type="button" className="small neutral" onClick={startEdit} disabled={!!editing}>
            Edit
          </button>
          <button type="button" className="small" onClick={() => setDeleting(true)}>
            Delete…
          </button>
          {trafficKinds.has(obj.kind) && (
            <button type="button" className="small neutral" onClick={() => trafficUi.getState().openFor(obj)}>
              Send traffic
            </button>
          )}
        </div>
        {loadKinds.has(obj.kind) && <LoadControl key={`${obj.kind}/${obj.metadata.namespace}/${obj.metadata.name}`} obj={obj} />}
      </header>
      <div role="tablist" aria-label="Inspector sections" className="tabs inspector-tabs" onKeyDown={onTabKey}>
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`inspector-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`inspector-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {/* The YAML panel stays mounted (hidden when another tab is open) so the live YAML is always in the page. */}
      <div role="tabpanel" id="inspector-panel-yaml" aria-labelledby="inspector-tab-yaml" className="inspector-panel" hidden={tab !== InspectorTab.Yaml}>
        {editing ? (
          <EditForm
            selection={selection}
            live={obj}
            original={editing.original}
            text={editing.text}
            onText={(text) => setEditing((e) => e && { ...e, text })}
            onReload={() => setEditing({ text: editableYaml(obj), original: obj })}
            onDone={() => setEditing(undefined)}
          />
        ) : (
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <ObjectYaml object={obj} />
          </Suspense>
        )}
      </div>
      {tab !== InspectorTab.Yaml && (
        <div role="tabpanel" id={`inspector-panel-${tab}`} aria-labelledby={`inspector-tab-${tab}`} className="inspector-panel">
          {tab === InspectorTab.Summary && <SummaryPanel obj={obj} />}
          {tab === InspectorTab.Events && <EventsPanel obj={obj} />}
          {tab === InspectorTab.Relations && <RelationsPanel obj={obj} />}
          {tab === InspectorTab.Scheduling && <SchedulingPanel pod={obj} />}
          {tab === InspectorTab.Why && <WhyPanel selection={selection} obj={obj} />}
        </div>
      )}
      {deleting && <DeleteDialog selection={selection} obj={obj} onClose={() => setDeleting(false)} />}
    </div>
  );
}

/** The header's status: kubectl's STATUS/READY, else the phase, else "Active" for a live object. */
function statusSummary(obj: KubeObject): string {
  const s = objectStatus(obj);
  if (s) return /^\d+\/\d+$/.test(s) ? `${s} ready` : s;
  const phase = (obj.status as { phase?: unknown } | undefined)?.phase;
  return typeof phase === 'string' ? phase : 'Exists';
}

/** An age that re-renders only when its text changes. */
export const LiveAge = memo(function LiveAge({ since }: { since: string | undefined }) {
  const text = useAppStore((s) => (s.sim ? age(since, s.sim.time) : ''));
  return <>{text}</>;
});
