// Module-level selectors. Derived lists are memoised on the identity of what they derive from, so a component
// re-renders only when a batch actually changed its input.
import type { KubeObject } from '../../shared/api/types';
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
    for (const [key, obj] of view.objects) rows.push(toRow(resourceKey, key, obj));
  }
  rows.sort((a, b) => cmp(a.kind, b.kind) || cmp(a.namespace, b.namespace) || cmp(a.name, b.name) || cmp(a.id, b.id));
  lastResources = state.resources;
  lastRows = rows;
  return rows;
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
