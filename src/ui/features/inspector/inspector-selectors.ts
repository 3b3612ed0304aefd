// Derived data the inspector reads from the store, memoised on the identity of what it derives from.
import type { AppState } from '../../state/store';
import type { UidIndex } from './relations';
import { buildUidIndex } from './relations';

let lastResources: AppState['resources'] | undefined;
let lastIndex: UidIndex | undefined;

/** Every watched object by uid, and dependents by owner uid; rebuilt only when a batch changed the objects. */
export function selectUidIndex(state: AppState): UidIndex {
  if (state.resources !== lastResources || !lastIndex) {
    lastIndex = buildUidIndex(state.resources);
    lastResources = state.resources;
  }
  return lastIndex;
}

export const selectEventObjects = (s: AppState) => s.resources['/events']?.objects;

/** Simulated time to the second: ages re-render once per simulated second at most. */
export const selectNowSeconds = (s: AppState) => (s.sim ? Math.floor(s.sim.time / 1000) * 1000 : 0);
