// The last few versions of the objects the page watched change, so the Control plane view can show what a
// request changed. Fed with each watch batch before it is applied (the store holds the "before" side); bounded
// in versions per object and in objects. The worker squashes changes per frame, so two writes within one frame
// reach the page as one version: a version here is one the page saw, not necessarily every revision.
import type { KubeObject } from '../../shared/api/types';
import type { WatchBatch } from '../../shared/protocol/messages';

export interface ObjectHistory {
  /** Records a batch's updated objects (with the version before, from `before`: the resource's objects as they were). */
  record(resourceKey: string, batch: WatchBatch, before: ReadonlyMap<string, KubeObject> | undefined): void;
  /** The versions the page saw of one object, oldest first (empty when it never changed while watched). */
  versions(resourceKey: string, key: string): readonly KubeObject[];
  clear(): void;
}

export function createObjectHistory(perObject = 4, maxObjects = 400): ObjectHistory {
  // Insertion order is recency: a touched object is moved to the end, the oldest are evicted first.
  const history = new Map<string, KubeObject[]>();
  const touch = (id: string, versions: KubeObject[]) => {
    history.delete(id);
    history.set(id, versions.length > perObject ? versions.slice(-perObject) : versions);
    if (history.size > maxObjects) history.delete(history.keys().next().value!);
  };
  return {
    record(resourceKey, batch, before) {
      // An initial list or a relist is the state, not a change; a created object is its own first version.
      if (batch.initial || batch.relist) return;
      for (const [key, obj] of Object.entries(batch.diff.updated)) {
        const id = `${resourceKey}|${key}`;
        let versions = history.get(id);
        // Another incarnation (recreated, or a cluster reset that restarted the revisions) starts afresh.
        if (versions && versions[versions.length - 1]?.metadata.uid !== obj.metadata.uid) versions = undefined;
        if (!versions) {
          const prev = before?.get(key);
          versions = prev && prev.metadata.uid === obj.metadata.uid ? [prev] : [];
        }
        touch(id, [...versions, obj]);
      }
      // A later object of the same name is another incarnation: its history starts afresh.
      for (const key of Object.keys(batch.diff.removed)) history.delete(`${resourceKey}|${key}`);
    },
    versions(resourceKey, key) {
      return history.get(`${resourceKey}|${key}`) ?? [];
    },
    clear() {
      history.clear();
    },
  };
}

/** The page's one history, fed by cluster-sync's watches. */
export const objectHistory: ObjectHistory = createObjectHistory();
