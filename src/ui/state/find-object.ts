// Finds the object an Event (involvedObject) or any other reference names, in what the page holds: by uid when
// it has one that matches, else by kind, namespace and name (kubelet Events name a Node with its name as uid).
import type { KubeObject } from '../../shared/api/types';
import type { ResourceObjects } from './objects-slice';
import type { ObjectSelection } from './ui-slice';

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
}

export function findObject(resources: Readonly<Record<string, ResourceObjects>>, ref: ObjectReference): ObjectSelection | undefined {
  let byName: ObjectSelection | undefined;
  for (const [resourceKey, view] of Object.entries(resources)) {
    if (resourceKey === '/events' || resourceKey === 'events.k8s.io/events') continue;
    for (const [key, obj] of view.objects) {
      if (ref.uid && obj.metadata.uid === ref.uid) return { resourceKey, key };
      if (!byName && matchesName(obj, ref)) byName = { resourceKey, key };
    }
  }
  return byName;
}

function matchesName(obj: KubeObject, ref: ObjectReference): boolean {
  return obj.kind === ref.kind && obj.metadata.name === ref.name && (obj.metadata.namespace ?? '') === (ref.namespace ?? '');
}
