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
/** Each resource's rows, sorted, kept while its map keeps its identity (a batch changes one or two resources). */
const rowsOfResource = new Map<string, { view: ResourceObjects; rows: ObjectRow[] }>();

const byRowOrder = (a: ObjectRow, b: ObjectRow) => cmp(a.kind, b.kind) || cmp(a.namespace, b.namespace) || cmp(a.name, b.name) || cmp(a.id, b.id);

/** Every object of every watched resource, sorted by kind, namespace, name. */
export function selectObjectRows(state: AppState): ObjectRow[] {
  if (state.resources === lastResources) return lastRows;
  const runs: ObjectRow[][] = [];
  for (const [resourceKey, view] of Object.entries(state.resources) as [string, ResourceObjects][]) {
    let cached = rowsOfResource.get(resourceKey);
    if (cached?.view !== view) {
      const rows: ObjectRow[] = [];
      for (const [key, obj] of view.objects) rows.push(rowOf(resourceKey, key, obj));
      rowsOfResource.set(resourceKey, (cached = { view, rows: rows.sort(byRowOrder) }));
    }
    if (cached.rows.length > 0) runs.push(cached.rows);
  }
  for (const key of rowsOfResource.keys()) if (!(key in state.resources)) rowsOfResource.delete(key);
  // Sorted runs laid end to end by their first row: the final sort (a merge sort over runs) is nearly linear.
  runs.sort((a, b) => byRowOrder(a[0], b[0]));
  const rows = runs.flat().sort(byRowOrder);
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
export const selectEffectiveDark = (s: AppState) => s.theme === 'dark' || (s.theme === 'system' && prefersDark());

// Selectors run on every store update (each frame of a rollout): one MediaQueryList, read, not one made per call.
let darkQuery: MediaQueryList | undefined;
function prefersDark(): boolean {
  if (typeof matchMedia !== 'function') return false;
  darkQuery ??= matchMedia('(prefers-color-scheme: dark)');
  return darkQuery.matches;
}

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

/**
 * core/v1 Events, newest last, as `kubectl get events` shows them. A rollout brings thousands of Events and
 * changes a few dozen a frame: when the map is the successor of the one the rows were built from, only the
 * touched keys are taken out and put back in their sorted places (a binary search each); anything else rebuilds.
 */
export function selectEventRows(state: AppState): EventRow[] {
  const view = state.resources['/events'];
  if (view === lastEvents) return lastEventRows;
  const rows = (lastEvents && view && patchEventRows(lastEventRows, lastEvents, view)) ?? buildEventRows(view);
  lastEvents = view;
  lastEventRows = rows;
  return rows;
}

const byEventOrder = (a: EventRow, b: EventRow) => cmp(a.time, b.time) || cmp(a.id, b.id);

function buildEventRows(view: ResourceObjects | undefined): EventRow[] {
  const rows: EventRow[] = [];
  for (const [key, e] of view?.objects ?? []) rows.push(eventRowOf(key, e));
  // Map order is mostly arrival order, nearly sorted by time already: the sort is close to linear.
  return rows.sort(byEventOrder);
}

/** The rows of `view` from those of `prev`, its predecessor; undefined when they cannot be patched. */
function patchEventRows(prevRows: readonly EventRow[], prev: ResourceObjects, view: ResourceObjects): EventRow[] | undefined {
  const change = view.change;
  if (!change || !prev.change || change.baseGeneration !== prev.change.generation) return undefined;
  // A large change (a relist-sized burst) is cheaper sorted once than inserted one by one.
  if (change.touched.size > 64 && change.touched.size * 8 > prevRows.length) return undefined;
  const rows = prevRows.slice();
  for (const key of change.touched) {
    const before = prev.objects.get(key);
    if (before) {
      const old = eventRowCache.get(before);
      const at = old ? lowerBound(rows, old) : -1;
      if (!old || rows[at] !== old) return undefined; // not the row this list holds: rebuild rather than guess
      rows.splice(at, 1);
    }
    const e = view.objects.get(key);
    if (e) {
      const row = eventRowOf(key, e);
      rows.splice(lowerBound(rows, row), 0, row);
    }
  }
  return rows;
}

/** The first index whose row does not sort before `row`. */
function lowerBound(rows: readonly EventRow[], row: EventRow): number {
  let lo = 0;
  let hi = rows.length;
  // Most changes are the newest Events: check the end first.
  if (hi > 0 && byEventOrder(rows[hi - 1], row) < 0) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byEventOrder(rows[mid], row) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function eventRowOf(key: string, e: KubeObject): EventRow {
  let row = eventRowCache.get(e);
  if (!row || row.id !== key) eventRowCache.set(e, (row = toEventRow(key, e)));
  return row;
}

// An Event object that did not change keeps its row (the same identity), so rebuilding the list is cheap.
const eventRowCache = new WeakMap<KubeObject, EventRow>();

function toEventRow(key: string, e: KubeObject): EventRow {
  const ev = e as KubeObject & {
    type?: string;
    reason?: string;
    message?: string;
    count?: number;
    lastTimestamp?: string;
    eventTime?: string;
    involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string };
  };
  return {
    id: key,
    time: ev.lastTimestamp ?? ev.eventTime ?? ev.metadata.creationTimestamp ?? '',
    type: ev.type ?? '',
    reason: ev.reason ?? '',
    object: `${(ev.involvedObject?.kind ?? '').toLowerCase()}/${ev.involvedObject?.name ?? ''}`,
    involved: ev.involvedObject ?? {},
    message: ev.message ?? '',
    count: ev.count ?? 1,
  };
}
