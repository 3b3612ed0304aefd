// Module-level selectors. Derived lists are memoised on the identity of what they derive from, so a component
// re-renders only when a batch actually changed its input.
import type { KubeObject } from '../../shared/api/types';
import { objectStatus } from '../lib/object-status';
import type { AppState } from './store';
import type { ResourceObjects } from './objects-slice';

export interface ObjectRow {
  /** Unique across resources: "group/resource|namespace/name". */
  id: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
  creationTimestamp: string | undefined;
  /** kubectl-like status: "2/3", "Running", "Ready"; empty for kinds without one. */
  status: string;
  /** What the row's Delete button needs. */
  apiVersion: string;
  resourceKey: string;
}

let lastResources: AppState['resources'] | undefined;
let lastRows: ObjectRow[] = [];

/** Every object of every watched resource, sorted by kind, namespace, name. */
export function selectObjectRows(state: AppState): ObjectRow[] {
  if (state.resources === lastResources) return lastRows;
  const rows: ObjectRow[] = [];
  for (const [resourceKey, view] of Object.entries(state.resources) as [string, ResourceObjects][]) {
    for (const [key, obj] of view.objects) rows.push(rowOf(resourceKey, key, obj));
  }
  rows.sort((a, b) => cmp(a.kind, b.kind) || cmp(a.namespace, b.namespace) || cmp(a.name, b.name) || cmp(a.id, b.id));
  lastResources = state.resources;
  lastRows = rows;
  return rows;
}

// An unchanged object keeps its row (same identity), so memoized table rows skip re-rendering on every batch.
const rowCache = new WeakMap<KubeObject, ObjectRow>();

function rowOf(resourceKey: string, key: string, obj: KubeObject): ObjectRow {
  let row = rowCache.get(obj);
  if (!row || row.resourceKey !== resourceKey) rowCache.set(obj, (row = toRow(resourceKey, key, obj)));
  return row;
}

function toRow(resourceKey: string, key: string, obj: KubeObject): ObjectRow {
  return {
    id: `${resourceKey}|${key}`,
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
    uid: obj.metadata.uid ?? '',
    resourceVersion: obj.metadata.resourceVersion ?? '',
    creationTimestamp: obj.metadata.creationTimestamp,
    status: objectStatus(obj),
    apiVersion: obj.apiVersion,
    resourceKey,
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const selectSim = (s: AppState) => s.sim;
export const selectError = (s: AppState) => s.error;
export const selectNotice = (s: AppState) => s.notice;
export const selectObjectCount = (s: AppState) => {
  let n = 0;
  for (const view of Object.values(s.resources)) n += view.objects.size;
  return n;
};

export const selectManifest = (s: AppState) => s.manifest;
export const selectApplyLines = (s: AppState) => s.applyLines;
export const selectEditorMarkers = (s: AppState) => s.markers;
export const selectTheme = (s: AppState) => s.theme;
export const selectPresentation = (s: AppState) => s.presentation;
export const selectView = (s: AppState) => s.view;
export const selectSelection = (s: AppState) => s.selected;
export const selectRequests = (s: AppState) => s.requests;

/** Dark when chosen, or when following the system and the system prefers dark. */
export const selectEffectiveDark = (s: AppState) =>
  s.theme === 'dark' || (s.theme === 'system' && typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches);

/** The selected object as the watch last delivered it; undefined once it is gone. */
export const selectSelectedObject = (s: AppState): KubeObject | undefined =>
  s.selected ? s.resources[s.selected.resourceKey]?.objects.get(s.selected.key) : undefined;

export interface EventRow {
  id: string;
  /** The event's last time (lastTimestamp, eventTime, or creation), RFC 3339. */
  time: string;
  type: string;
  reason: string;
  object: string;
  /** The involvedObject, to open it in the inspector. */
  involved: { kind?: string; namespace?: string; name?: string; uid?: string };
  message: string;
  count: number;
}

let lastEvents: ResourceObjects | undefined;
let lastEventRows: EventRow[] = [];

/** core/v1 Events, newest last, as `kubectl get events` shows them. */
export function selectEventRows(state: AppState): EventRow[] {
  const view = state.resources['/events'];
  if (view === lastEvents) return lastEventRows;
  const rows: EventRow[] = [];
  for (const [key, e] of view?.objects ?? []) {
    const ev = e as KubeObject & {
      type?: string;
      reason?: string;
      message?: string;
      count?: number;
      lastTimestamp?: string;
      eventTime?: string;
      involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string };
    };
    rows.push({
      id: key,
      time: ev.lastTimestamp ?? ev.eventTime ?? ev.metadata.creationTimestamp ?? '',
      type: ev.type ?? '',
      reason: ev.reason ?? '',
      object: `${(ev.involvedObject?.kind ?? '').toLowerCase()}/${ev.involvedObject?.name ?? ''}`,
      involved: ev.involvedObject ?? {},
      message: ev.message ?? '',
      count: ev.count ?? 1,
    });
  }
  rows.sort((a, b) => cmp(a.time, b.time) || cmp(a.id, b.id));
  lastEvents = view;
  lastEventRows = rows;
  return rows;
}
