// The worker-fed slice: every object the UI knows, per resource, exactly as the watch batches delivered it.
// applyBatch is its only writer. Maps are replaced, never mutated, so selectors see new identities.
import type { KubeObject } from '../../shared/api/types';
import { applyDiff } from '../../shared/protocol/diff';
import type { WatchBatch } from '../../shared/protocol/messages';
import type { StateCreator } from 'zustand';
import type { AppState } from './store';

export interface ResourceObjects {
  objects: ReadonlyMap<string, KubeObject>;
  /** The resourceVersion the last batch reached. */
  resourceVersion: string;
}

export interface ObjectsSlice {
  /** Keyed by "group/resource" ("/configmaps", "apps/deployments"). */
  resources: Readonly<Record<string, ResourceObjects>>;
  applyBatch(resourceKey: string, batch: WatchBatch): void;
}

export function resourceKey(group: string, resource: string): string {
  return `${group}/${resource}`;
}

export const createObjectsSlice: StateCreator<AppState, [], [], ObjectsSlice> = (set) => ({
  resources: {},
  applyBatch(key, batch) {
    set((state) => {
      // A relist is a replacement: what this resource held before is dropped, the batch's added is all of it.
      const base = batch.relist ? new Map<string, KubeObject>() : (state.resources[key]?.objects ?? new Map<string, KubeObject>());
      return {
        resources: {
          ...state.resources,
          [key]: { objects: applyDiff(base, batch.diff), resourceVersion: batch.resourceVersion },
        },
      };
    });
  },
});
