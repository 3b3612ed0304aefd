// The running components as the worker last described them ('sim/components'): the API server, etcd's revision,
// kube-controller-manager's controllers and queues, the scheduler, the kubelets. Polled while the Control plane
// view is shown; unknown until the first answer (or while the worker cannot answer).
import type { StateCreator } from 'zustand';
import type { ComponentsSnapshot } from '../../shared/protocol/introspection';
import type { AppState } from './store';

export interface ComponentsSlice {
  components: ComponentsSnapshot | undefined;
  /** Why there is no snapshot (the worker's message), when the last poll failed. */
  componentsError: string | undefined;
  setComponents(snapshot: ComponentsSnapshot): void;
  componentsUnavailable(message: string): void;
}

export const createComponentsSlice: StateCreator<AppState, [], [], ComponentsSlice> = (set, get) => ({
  components: undefined,
  componentsError: undefined,
  setComponents(components) {
    set({ components, componentsError: undefined });
  },
  componentsUnavailable(message) {
    // The last snapshot would be stale: show the components as unknown rather than as they were.
    if (get().components === undefined && get().componentsError === message) return;
    set({ components: undefined, componentsError: message });
  },
});
