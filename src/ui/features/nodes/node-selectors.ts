// Selectors over the store for the Nodes view. The pods-by-node index is rebuilt only when the pods map changes
// identity; each card then picks its own node's array, whose elements keep their identity between batches, so
// useShallow re-renders a card only when one of its own pods changed.
import type { KubeObject } from '../../../shared/api/types';
import { resourceKey } from '../../state/objects-slice';
import type { AppState } from '../../state/store';
import { podNodeName } from './node-model';

const nodesKey = resourceKey('', 'nodes');
const podsKey = resourceKey('', 'pods');

const empty: readonly KubeObject[] = [];

function byName(a: KubeObject, b: KubeObject): number {
  const an = `${a.metadata.namespace ?? ''}/${a.metadata.name ?? ''}`;
  const bn = `${b.metadata.namespace ?? ''}/${b.metadata.name ?? ''}`;
  return an < bn ? -1 : an > bn ? 1 : 0;
}

let lastNodesMap: ReadonlyMap<string, KubeObject> | undefined;
let lastNodeNames: readonly string[] = [];

/** Node names, sorted; a new array only when the set of names changed (use with useShallow). */
export function selectNodeNames(state: AppState): readonly string[] {
  const map = state.resources[nodesKey]?.objects;
  if (map === lastNodesMap) return lastNodeNames;
  lastNodesMap = map;
  lastNodeNames = map ? [...map.values()].map((n) => n.metadata.name ?? '').sort() : [];
  return lastNodeNames;
}

export function selectNode(state: AppState, name: string): KubeObject | undefined {
  return state.resources[nodesKey]?.objects.get(name);
}

interface PodIndex {
  byNode: Map<string, KubeObject[]>;
  unscheduled: KubeObject[];
}

let lastPodsMap: ReadonlyMap<string, KubeObject> | undefined;
let lastIndex: PodIndex = { byNode: new Map(), unscheduled: [] };

export function podIndex(state: AppState): PodIndex {
  const map = state.resources[podsKey]?.objects;
  if (map === lastPodsMap) return lastIndex;
  const index: PodIndex = { byNode: new Map(), unscheduled: [] };
  if (map) {
    for (const pod of map.values()) {
      const node = podNodeName(pod);
      if (node === undefined) {
        index.unscheduled.push(pod);
        continue;
      }
      let list = index.byNode.get(node);
      if (!list) index.byNode.set(node, (list = []));
      list.push(pod);
    }
    for (const list of index.byNode.values()) list.sort(byName);
    index.unscheduled.sort(byName);
  }
  lastPodsMap = map;
  lastIndex = index;
  return index;
}

/** Pods bound to `node`, sorted by namespace/name. */
export function selectPodsOnNode(state: AppState, node: string): readonly KubeObject[] {
  return podIndex(state).byNode.get(node) ?? empty;
}

/** Pods with no nodeName yet (the scheduler has not bound them). */
export function selectUnscheduledPods(state: AppState): readonly KubeObject[] {
  return podIndex(state).unscheduled;
}
