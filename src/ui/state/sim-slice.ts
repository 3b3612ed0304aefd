import type { StateCreator } from 'zustand';
import type { SimState } from '../../shared/protocol/methods';
import type { AppState } from './store';

export interface SimSlice {
  /** The simulation as last reported by the worker; undefined until it answered. */
  sim: SimState | undefined;
  setSim(sim: SimState): void;
}

export const createSimSlice: StateCreator<AppState, [], [], SimSlice> = (set) => ({
  sim: undefined,
  setSim(sim) {
    set({ sim });
  },
});
