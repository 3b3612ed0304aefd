// The worker-fed slice: every object the UI knows, per resource, exactly as the watch batches delivered it.
// applyBatch / applyBatches are its only writers. Maps are replaced, never mutated once published, so selectors
// see new identities for the resources that changed and the same identities for the rest.
import type { KubeObject } from '../../shared/api/types';
import type { WatchBatch } from '../../shared/protocol/messages';
import type { StateCreator } from 'zustand';
import type { AppState } from './store';

export interface ResourceObjects {
  objects: ReadonlyMap<string, KubeObject>;
  /** The resourceVersion the last batch reached. */
  resourceVersion: string;
  /**
   * What the store update that published this map changed, against the map it replaced: selectors that derive
   * from the last version they saw patch in these keys instead of rescanning every object. Absent after a relist
   * (the whole map is new) and on maps built elsewhere (tests): then a derived view is rebuilt.
   */
  change?: ResourceChange;
}

export interface ResourceChange {
  /** The `generation` of the ResourceObjects this one replaced (a number, not the object: no chain of old maps). */
  baseGeneration: number;
  /** This map's generation; unique per published map. */
  generation: number;
  /** Keys added, updated or removed: each is in `objects` or gone. */
  touched: ReadonlySet<string>;
}

let nextGeneration = 1;

/** One watch batch for one resource ("group/resource"), as cluster-sync queues them between two frames. */
export interface KeyedBatch {
  resourceKey: string;
  batch: WatchBatch;
}

export interface ObjectsSlice {
  /** Keyed by "group/resource" ("/configmaps", "apps/deployments"). */
  resources: Readonly<Record<string, ResourceObjects>>;
  applyBatch(resourceKey: string, batch: WatchBatch): void;
  /**
   * Applies batches in order as one store update (one render however many arrived). `before` is called with
   * each batch and the resource's objects just before it, e.g. for the object history.
   */
  applyBatches(batches: readonly KeyedBatch[], before?: (item: KeyedBatch, objects: ReadonlyMap<string, KubeObject> | undefined) => void): void;
}

export function resourceKey(group: string, resource: string): string {
  return `${group}/${resource}`;
}

export const createObjectsSlice: StateCreator<AppState, [], [], ObjectsSlice> = (set, get) => ({
  resources: {},
  applyBatch(key, batch) {
    get().applyBatches([{ resourceKey: key, batch }]);
  },
  applyBatches(batches, before) {
    if (batches.length === 0) return;
    set((state) => {
      // Each changed resource's map is copied once per call, then written in place until published.
      const drafts = new Map<string, { objects: Map<string, KubeObject>; resourceVersion: string; touched?: Set<string> }>();
      for (const item of batches) {
        const { resourceKey: key, batch } = item;
        let draft = drafts.get(key);
        before?.(item, draft?.objects ?? state.resources[key]?.objects);
        if (batch.relist) {
          // A relist is a replacement: what this resource held before is dropped, the batch's added is all of it.
          draft = { objects: new Map(), resourceVersion: batch.resourceVersion };
          drafts.set(key, draft);
        } else if (!draft) {
          const base = state.resources[key];
          draft = { objects: new Map(base?.objects ?? []), resourceVersion: batch.resourceVersion, touched: base?.change ? new Set() : undefined };
          drafts.set(key, draft);
        }
        const { objects, touched } = draft;
        const { diff } = batch;
        for (const k in diff.removed) objects.delete(k);
        for (const k in diff.added) objects.set(k, diff.added[k]);
        for (const k in diff.updated) objects.set(k, diff.updated[k]);
        if (touched) {
          for (const k in diff.removed) touched.add(k);
          for (const k in diff.added) touched.add(k);
          for (const k in diff.updated) touched.add(k);
        }
        draft.resourceVersion = batch.resourceVersion;
      }
      const resources: Record<string, ResourceObjects> = { ...state.resources };
      for (const [key, draft] of drafts) {
        const generation = nextGeneration++;
        const base = state.resources[key]?.change;
        // A relist (no touched set) starts a new line of generations: nothing can be patched across it.
        const change: ResourceChange = draft.touched && base ? { baseGeneration: base.generation, generation, touched: draft.touched } : { baseGeneration: 0, generation, touched: new Set() };
        resources[key] = { objects: draft.objects, resourceVersion: draft.resourceVersion, change };
      }
      return { resources };
    });
  },
});
